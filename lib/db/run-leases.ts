import "server-only";
import type { DbClient } from "./db-types";
import { type RunRow, type StoredRun, toStoredRun } from "./runs";
import {
  hotSqlOf,
  readSqlJson,
  readSqlTime,
  type SqlStatement,
  sql,
  sqlBool,
  sqlColumns,
  sqlInt,
  sqlTable,
  sqlTime,
} from "./sql/hot-sql";

// A running run belongs to the process named in `leaseOwner` until `leaseExpiresAt`. Every
// change of hands is one conditional update, so two processes can never both own a run.

/**
 * Takes a parked run back to running once none of its requests is open, and returns it as
 * claimed; exactly one caller wins. From this statement on, the calls it waited on may start
 * and a Stop is refused until their results are stored (`answeredCallsStarted`, ADR 0055). Nothing can open a request while the run is parked, and
 * whoever resolves the last one calls this after its own commit (or, answering it, has taken
 * the run in that very statement or transaction: `countOffRunSql`), so no run is left behind.
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

/** A lease under which a process drives a run. */
export type RunLease = { leaseOwner: string; leaseExpiresAt: Date };

/**
 * Counts a resolved request off its run, returning the run's row as it leaves it, or none when
 * an answer finds the run no longer parked (an answer is only worth taking while its run waits,
 * and a Stop that read the run before this commit must not also succeed). An answer moves the
 * run's version; with `takeUnder` it also takes the run back to running under that lease when
 * this was its last open request, by the count and by the rows, exactly when `claimParkedRun`
 * would take it right after the answer's commit: the version then moves twice, as the two steps
 * would move it, and the answered calls may start (`answeredCallsStarted`, ADR 0055).
 * `when`: what else the update waits for, within the statement it is part of.
 */
export function countOffRunSql({
  runId,
  requestRowId,
  answered,
  takeUnder,
  at,
  when,
}: {
  runId: string;
  requestRowId: string;
  answered: boolean;
  takeUnder?: RunLease;
  at: Date;
  when?: SqlStatement;
}): SqlStatement {
  const also = when ? sql` AND ${when}` : sql``;
  const updatedAt = sqlTime(at);
  if (!answered)
    return sql`UPDATE ${sqlTable("Run")} SET "openRequests" = "openRequests" - 1, "updatedAt" = ${updatedAt}
      WHERE "id" = ${runId}${also} RETURNING ${sqlColumns(RUN_ROW_COLUMNS)}`;
  const take = sql`"o"."free" AND "openRequests" = 1`;
  return sql`UPDATE ${sqlTable("Run")} SET
      "status" = CASE WHEN ${take} THEN 'running' ELSE "status" END,
      "leaseOwner" = CASE WHEN ${take} THEN ${takeUnder?.leaseOwner ?? null} ELSE "leaseOwner" END,
      "leaseExpiresAt" = CASE WHEN ${take} THEN ${sqlTime(takeUnder?.leaseExpiresAt ?? null)} ELSE "leaseExpiresAt" END,
      "version" = "version" + CASE WHEN ${take} THEN 2 ELSE 1 END,
      "answeredCallsStarted" = ${take},
      "openRequests" = "openRequests" - 1,
      "updatedAt" = ${updatedAt}
    FROM (SELECT ${sqlBool(takeUnder !== undefined)} AND NOT EXISTS (
      SELECT 1 FROM ${sqlTable("Request")} AS "other"
      WHERE "other"."runId" = ${runId} AND "other"."status" = 'open' AND "other"."id" <> ${requestRowId}) AS "free") AS "o"
    WHERE "id" = ${runId} AND "status" = 'pending'${also}
    RETURNING ${sqlColumns(RUN_ROW_COLUMNS)}`;
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
  "answeredCallsStarted",
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
    // SQLite hands a boolean back as 0 or 1.
    answeredCallsStarted: Boolean(row.answeredCallsStarted),
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
 * Hand-written statements, as Prisma's own query would send them: the engine runs this at start-up,
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
  const hot = hotSqlOf(db);
  const ready = await hot.query<{ id: string; status: string }>(
    sql`SELECT "id", "status" FROM ${sqlTable("Run")} WHERE "status" = ${"pending"} AND "openRequests" = ${sqlInt(0)}
      ORDER BY "id" ASC LIMIT ${sqlInt(limit)}`,
  );
  // Whether a lease has lapsed is asked of the database, in the stored form of `now`. Both
  // databases put NULL first in ascending order by themselves; SQLite reads it from the index.
  const running = await hot.query<{ id: string; status: string; lapsed: number | bigint }>(
    sql`SELECT "id", "status", CASE WHEN "leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${sqlTime(now)} THEN 1 ELSE 0 END AS "lapsed"
      FROM ${sqlTable("Run")} WHERE "status" = ${"running"}
      ORDER BY "leaseExpiresAt" ASC NULLS FIRST LIMIT ${sqlInt(Math.max(1, limit - ready.length))}`,
  );
  const lapsed = running.filter((row) => Number(row.lapsed) === 1).map(({ id, status }) => ({ id, status }));
  return {
    orphans: [...ready.map(({ id, status }) => ({ id, status })), ...lapsed],
    anyRunning: running.length > 0,
  };
}
