import "server-only";
import type { UserListRow } from "@/lib/domain/admin-rows";
import { parseRole } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { newestFirstPage } from "./newest-first-page";
import { textSearchWhere } from "./text-search";

/**
 * One page of every account, newest first; `search` matches name or email, ignoring case. The
 * id breaks ties of accounts created in the same millisecond, so pages never overlap.
 */
export async function listUsersPage({
  db,
  search,
  page,
  pageSize,
}: {
  db: DbClient;
  search?: string;
  page: number;
  pageSize: number;
}): Promise<{ rows: UserListRow[]; total: number }> {
  const where = search ? await textSearchWhere({ db, table: "User", text: search }) : {};
  const [found, total] = await Promise.all([
    db.user.findMany({
      where,
      ...newestFirstPage(page, pageSize),
      select: {
        id: true,
        name: true,
        email: true,
        role: true,
        createdAt: true,
        _count: { select: { ownedRequests: { where: { status: "open" } } } },
      },
    }),
    db.user.count({ where }),
  ]);
  return {
    total,
    rows: found.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      role: parseRole(row.role),
      createdAt: row.createdAt.toISOString(),
      openRequests: row._count.ownedRequests,
    })),
  };
}
