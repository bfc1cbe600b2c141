import "server-only";
import { listThreadsByOwner, type ThreadSummary } from "./chat-threads";
import type { DbClient } from "./db-types";

/**
 * Where a thread's latest run stands while it has not ended: `working`, or parked on requests
 * of which at least one is the owner's to answer (`needs_you`) or all are a reviewer's.
 */
export type ThreadStatus = "working" | "needs_you" | "waiting_for_reviewer";

export interface ThreadListItem extends ThreadSummary {
  /** Null once the latest run has ended, whichever way. */
  status: ThreadStatus | null;
}

/**
 * The owner's threads as `listThreadsByOwner` lists them, each with its status.
 *
 * A thread runs one thing at a time, so its status is that of its one running or parked run.
 * Open requests always belong to a parked run (a run resumes only once none is left open, and
 * ending one cancels the rest), so the owner's open requests, a seek on `(ownerId, status)`,
 * give the parked threads; and few runs are running at any moment, which the
 * `(status, leaseExpiresAt)` index narrows to. Neither query reads the owner's history. A run
 * whose last request was just answered and that has not been picked up again shows nothing
 * for that moment.
 */
export async function listThreadsWithStatusByOwner({
  db,
  userId,
  limit,
}: {
  db: DbClient;
  userId: string;
  limit?: number;
}): Promise<ThreadListItem[]> {
  const threads = await listThreadsByOwner({ db, userId, ...(limit === undefined ? {} : { limit }) });
  if (threads.length === 0) return [];
  const [running, open] = await Promise.all([
    db.run.findMany({
      where: { status: "running", threadId: { in: threads.map((thread) => thread.id) } },
      select: { threadId: true },
    }),
    db.request.findMany({
      where: { ownerId: userId, status: "open", origin: "run" },
      select: { threadId: true, audience: true },
    }),
  ]);
  const statuses = new Map<string, ThreadStatus>();
  for (const request of open) {
    if (request.audience === "owner") statuses.set(request.threadId, "needs_you");
    else if (!statuses.has(request.threadId)) statuses.set(request.threadId, "waiting_for_reviewer");
  }
  for (const run of running) statuses.set(run.threadId, "working");
  return threads.map((thread) => ({ ...thread, status: statuses.get(thread.id) ?? null }));
}
