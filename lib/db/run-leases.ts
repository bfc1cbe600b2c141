import "server-only";
import type { DbClient } from "./db-types";
import { type StoredRun, toStoredRun } from "./runs";

// A running run belongs to the process named in `leaseOwner` until `leaseExpiresAt`. Every
// change of hands is one conditional update, so two processes can never both own a run.

/**
 * Takes a parked run back to running once none of its requests is open, and returns it as
 * claimed; exactly one caller wins. Nothing can open a request while the run is parked, and
 * whoever resolves the last one calls this after its own commit, so no run is left behind.
 */
export async function claimParkedRun({
  db,
  runId,
  leaseOwner,
  leaseExpiresAt,
}: {
  db: DbClient;
  runId: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
}): Promise<StoredRun | null> {
  const [row] = await db.run.updateManyAndReturn({
    // The count says none is open; the check of the rows themselves (an index lookup by run)
    // keeps a run waiting should the count ever be wrong, rather than resuming it unanswered.
    where: { id: runId, status: "pending", openRequests: 0, requests: { none: { status: "open" } } },
    data: { status: "running", leaseOwner, leaseExpiresAt, version: { increment: 1 } },
  });
  return row ? toStoredRun(row) : null;
}

/** Takes over a running run whose owner stopped renewing its lease (crashed or stalled). */
export async function claimLapsedRun({
  db,
  runId,
  leaseOwner,
  leaseExpiresAt,
  now,
}: {
  db: DbClient;
  runId: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
  now: Date;
}): Promise<boolean> {
  const claim = await db.run.updateMany({
    where: { id: runId, status: "running", OR: [{ leaseExpiresAt: { lt: now } }, { leaseExpiresAt: null }] },
    data: { leaseOwner, leaseExpiresAt, version: { increment: 1 } },
  });
  return claim.count === 1;
}

export async function renewRunLeases({
  db,
  leaseOwner,
  runIds,
  leaseExpiresAt,
}: {
  db: DbClient;
  leaseOwner: string;
  runIds: string[];
  leaseExpiresAt: Date;
}): Promise<void> {
  if (runIds.length === 0) return;
  await db.run.updateMany({
    where: { id: { in: runIds }, status: "running", leaseOwner },
    data: { leaseExpiresAt },
  });
}

/** On shutdown: let another process take these runs over at once instead of after the lease. */
export async function releaseRunLeases({
  db,
  leaseOwner,
  runIds,
}: {
  db: DbClient;
  leaseOwner: string;
  runIds: string[];
}): Promise<void> {
  if (runIds.length === 0) return;
  await db.run.updateMany({
    where: { id: { in: runIds }, status: "running", leaseOwner },
    data: { leaseExpiresAt: new Date(0) },
  });
}

/**
 * Runs nobody is driving — lapsed leases, and parked runs whose every request is resolved —
 * and whether any run is running at all (held or not). Two index ranges, neither of which
 * holds the parked runs still waiting: running runs by lease (no lease first, then the
 * earliest to lapse, so `limit` never hides a lapsed lease behind live ones), and parked runs
 * with no open request, by the count each run keeps.
 */
export async function listOrphanedRuns({
  db,
  now,
  limit = 50,
}: {
  db: DbClient;
  now: Date;
  limit?: number;
}): Promise<{ orphans: { id: string; status: string }[]; anyRunning: boolean }> {
  const ready = await db.run.findMany({
    where: { status: "pending", openRequests: 0 },
    select: { id: true, status: true },
    take: limit,
  });
  const running = await db.run.findMany({
    where: { status: "running" },
    select: { id: true, status: true, leaseExpiresAt: true },
    orderBy: { leaseExpiresAt: { sort: "asc", nulls: "first" } },
    take: Math.max(1, limit - ready.length),
  });
  const lapsed = running
    .filter((row) => row.leaseExpiresAt === null || row.leaseExpiresAt < now)
    .map(({ id, status }) => ({ id, status }));
  return { orphans: [...ready, ...lapsed], anyRunning: running.length > 0 };
}
