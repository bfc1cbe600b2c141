import { z } from "zod";

export const ADMIN_PAGE_SIZE = 20;

export interface UserFilters {
  q: string | undefined;
  page: number;
}

type Params = Record<string, string | string[] | undefined>;

const pageField = z.coerce.number().int().min(1).max(10_000);
const searchField = z.string().trim().min(1).max(200);

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The page number in the URL; anything else (a hand-edited URL) means the first page. */
export function parsePage(params: Params): number {
  const parsed = pageField.safeParse(first(params.page));
  return parsed.success ? parsed.data : 1;
}

/** The users list's search and page, read from the URL so a view can be reloaded and shared. */
export function parseUserFilters(params: Params): UserFilters {
  const q = searchField.safeParse(first(params.q));
  return { q: q.success ? q.data : undefined, page: parsePage(params) };
}

/** The query string for a filter set, leaving defaults out so URLs stay short. */
export function userSearch(filters: UserFilters, change: Partial<UserFilters> = {}): string {
  const merged = { ...filters, ...change };
  const params = new URLSearchParams();
  if (merged.q) params.set("q", merged.q);
  if (merged.page !== 1) params.set("page", String(merged.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function pageSearch(page: number): string {
  return page === 1 ? "" : `?page=${page}`;
}
