/**
 * One page of an admin list, newest first. The id breaks ties between rows made in the same
 * millisecond, so a row never shows on two pages nor on none. `page` counts from 1.
 */
export function newestFirstPage(page: number, pageSize: number) {
  return {
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    skip: (page - 1) * pageSize,
    take: pageSize,
  };
}
