import "server-only";
import type { ActiveRunRow } from "@/lib/domain/admin-rows";
import type { DbClient } from "./db-types";
import { newestFirstPage } from "./newest-first-page";

const ACTIVE = ["running", "pending"];

/**
 * One page of the runs that have not ended yet (working, or parked on requests), across all
 * users, newest first with the id breaking ties. Few runs are active at a time, so the
 * `(status, leaseExpiresAt)` index narrows the rows and sorting them is cheap.
 */
export async function listActiveRunsPage({
  db,
  page,
  pageSize,
}: {
  db: DbClient;
  page: number;
  pageSize: number;
}): Promise<{ rows: ActiveRunRow[]; total: number }> {
  const where = { status: { in: ACTIVE } };
  const [found, total] = await Promise.all([
    db.run.findMany({
      where,
      ...newestFirstPage(page, pageSize),
      select: {
        id: true,
        status: true,
        createdAt: true,
        userId: true,
        thread: { select: { title: true } },
        user: { select: { name: true, email: true } },
        _count: { select: { requests: { where: { status: "open" } } } },
      },
    }),
    db.run.count({ where }),
  ]);
  return {
    total,
    rows: found.map((row) => ({
      id: row.id,
      threadTitle: row.thread.title,
      ownerId: row.userId,
      ownerName: row.user.name ?? row.user.email,
      status: row.status === "running" ? "running" : "pending",
      startedAt: row.createdAt.toISOString(),
      openRequests: row._count.requests,
    })),
  };
}
