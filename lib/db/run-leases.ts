import "server-only";
import { getDbProvider, getRawTableName } from "./db-provider";
import type { DbClient, DbTx } from "./db-types";
import { hotSqlOf, readSqlJson, readSqlTime, sql, sqlColumns, sqlTable, sqlTime } from "./hot-sql";
import { type RunRow, type StoredRun, toStoredRun } from "./runs";

// A running run belongs to the process named in `leaseOwner` until `leaseExpiresAt`. Every
// change of hands is one conditional update, so two processes can never both own a run.

/**
 * Takes a parked run back to running once none of its requests is open, and returns it as
 * claimed; exactly one caller wins. From this statement on, the calls it waited on may start
 * and a Stop is refused until their results are stored (`answeredCallsStarted`, ADR 0055). Nothing can open a request while the run is parked, and
 * whoever resolves the last one calls this after its own commit (or, answering it, has taken
 * the run in that very transaction: `claimParkedRunByLastAnswer`), so no run is left behind.
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
  // Hot SQL, not Prisma's typed update: this statement runs rarely (a run whose last request was
  // resolved outside an answer, a takeover), so its shape was still uncompiled in a serving
  // process and its first use cost 50-75 ms of Prisma compiling it (docs/benchmarks.md, item 9).
  // The count says none is open; the check of the rows themselves (an index lookup by run)
  // keeps a run waiting should the count ever be wrong, rather than resuming it unanswered.
  const [row] = await hotSqlOf(db).query<Record<keyof RunRow, unknown>>(sql`
    UPDATE ${sqlTable("Run")} SET "status" = 'running', "leaseOwner" = ${leaseOwner},
      "leaseExpiresAt" = ${sqlTime(leaseExpiresAt)}, "version" = "version" + 1, "answeredCallsStarted" = true,
      "updatedAt" = ${sqlTime(new Date())}
    WHERE "id" = ${runId} AND "status" = 'pending' AND "openRequests" = 0 AND NOT EXISTS (
      SELECT 1 FROM ${sqlTable("Request")} AS "open"
      WHERE "open"."runId" = ${runId} AND "open"."status" = 'open')
    RETURNING ${sqlColumns(RUN_ROW_COLUMNS)}`);
  return row ? toStoredRun(readRunRow(row)) : null;
}

/**
 * Inside the transaction of an answer to a parked run's last open request: counts the answer
 * off and takes the run back to running under the given lease in one statement, exactly when
 * `claimParkedRun` would take it right after that commit (no other request of it open, by its
 * count and by the rows). Null when the run waits on more; the caller then only counts one off.
 * The run's row is still the first written, and if the claim of the request then loses, this
 * rolls back with the rest. The version moves twice, as the answer and the change of hands
 * each move it when they are two steps.
 */
export async function claimParkedRunByLastAnswer({
  tx,
  runId,
  requestRowId,
  leaseOwner,
  leaseExpiresAt,
}: {
  tx: DbTx;
  runId: string;
  requestRowId: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
}): Promise<StoredRun | null> {
  const [row] = await hotSqlOf(tx).query<Record<keyof RunRow, unknown>>(sql`
    UPDATE ${sqlTable("Run")} SET "status" = 'running', "leaseOwner" = ${leaseOwner},
      "leaseExpiresAt" = ${sqlTime(leaseExpiresAt)}, "openRequests" = 0, "version" = "version" + 2,
      "answeredCallsStarted" = true, "updatedAt" = ${sqlTime(new Date())}
    WHERE "id" = ${runId} AND "status" = 'pending' AND "openRequests" = 1 AND NOT EXISTS (
      SELECT 1 FROM ${sqlTable("Request")} AS "other"
      WHERE "other"."runId" = ${runId} AND "other"."status" = 'open' AND "other"."id" <> ${requestRowId})
    RETURNING ${sqlColumns(RUN_ROW_COLUMNS)}`);
  return row ? toStoredRun(readRunRow(row)) : null;
}

/** What a claim hands back of the run's row: every column `readRunRow` reads. */
export const RUN_ROW_COLUMNS: readonly (keyof RunRow)[] = [
  "id",
  "threadId",
  "userId",
  "status",
  "model",
  "checkpoint",
  "leaseOwner",
  "leaseExpiresAt",
  "error",
  "version",
  "savedEventSeq",
];

/** A run as a claim's RETURNING of `RUN_ROW_COLUMNS` hands it back. */
export function storedRunOfReturned(row: Record<keyof RunRow, unknown>): StoredRun {
  return toStoredRun(readRunRow(row));
}

/** A run row as a hot statement hands it back (see `toStoredRun`). */
function readRunRow(row: Record<keyof RunRow, unknown>): RunRow {
  return {
    id: row.id as string,
    threadId: row.threadId as string,
    userId: row.userId as string,
    status: row.status as string,
    model: row.model as string,
    checkpoint: row.checkpoint === null ? null : readSqlJson(row.checkpoint),
    leaseOwner: row.leaseOwner as string | null,
    leaseExpiresAt: row.leaseExpiresAt === null ? null : readSqlTime(row.leaseExpiresAt),
    error: row.error as string | null,
    version: Number(row.version),
    savedEventSeq: Number(row.savedEventSeq),
  };
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
 *
 * Raw SQL, the statements Prisma's own query would send: the engine runs this at start-up,
 * and Prisma compiles each query shape on its first use in a process, synchronously (tens of
 * ms), which made start-up miss its budget whatever the number of runs (ADR 0043).
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
  const run = getRawTableName({ db, table: "Run" });
  const sqlite = getDbProvider({ db }) === "sqlite";
  const ready = await db.$queryRawUnsafe<{ id: string; status: string }[]>(
    sqlite
      ? `SELECT "id", "status" FROM ${run} WHERE "status" = ? AND "openRequests" = ? ORDER BY "id" ASC LIMIT ?`
      : `SELECT "id", "status" FROM ${run} WHERE "status" = $1 AND "openRequests" = $2 ORDER BY "id" ASC LIMIT $3`,
    "pending",
    0,
    limit,
  );
  // Whether a lease has lapsed is asked of the database, in the stored form of `now`.
  const running = await db.$queryRawUnsafe<{ id: string; status: string; lapsed: number | bigint }[]>(
    sqlite
      ? `SELECT "id", "status", CASE WHEN "leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ? THEN 1 ELSE 0 END AS "lapsed" FROM ${run} WHERE "status" = ? ORDER BY CASE WHEN "leaseExpiresAt" IS NULL THEN 0 ELSE 1 END, "leaseExpiresAt" ASC LIMIT ?`
      : `SELECT "id", "status", CASE WHEN "leaseExpiresAt" IS NULL OR "leaseExpiresAt" < $1::timestamp(3) THEN 1 ELSE 0 END AS "lapsed" FROM ${run} WHERE "status" = $2 ORDER BY "leaseExpiresAt" ASC NULLS FIRST LIMIT $3`,
    now.toISOString(),
    "running",
    Math.max(1, limit - ready.length),
  );
  const lapsed = running.filter((row) => Number(row.lapsed) === 1).map(({ id, status }) => ({ id, status }));
  return {
    orphans: [...ready.map(({ id, status }) => ({ id, status })), ...lapsed],
    anyRunning: running.length > 0,
  };
}
