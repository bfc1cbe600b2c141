import "server-only";
import type { DbClient } from "./db-types";
import { hotSqlOf, readSqlTime, sql, sqlInt, sqlTable, sqlTime } from "./sql/hot-sql";

// A Stop refused while a run's answered calls run (ADR 0101) is stored with the run, so that
// whichever instance sweeps first ends the run when it falls due, even after the process that
// took the Stop has stopped. `cancelRunById({ overdueCalls: true })` decides who ends it.

export type PendingStop =
  /** The run will be stopped at `dueAt` if its answered calls still run then. */
  | { status: "pending"; dueAt: Date }
  /** The calls are no longer running (or the run is over): there is nothing to wait for. */
  | { status: "none" };

/**
 * Records a Stop pressed by `actorId` while the run's answered calls run, due at `dueAt`. The
 * first such Stop holds, its time and its name: pressing Stop again does not push it back. The
 * same condition as the cancel's, in one statement, so a call that finished (its safe point
 * cleared the flag) before this write leaves nothing behind.
 */
export async function recordPendingStop({
  db,
  runId,
  actorId,
  dueAt,
}: {
  db: DbClient;
  runId: string;
  actorId: string;
  dueAt: Date;
}): Promise<PendingStop> {
  const [row] = await hotSqlOf(db).query<{ stopDueAt: unknown }>(sql`
    UPDATE ${sqlTable("Run")} SET "stopDueAt" = COALESCE("stopDueAt", ${sqlTime(dueAt)}),
      "stopActorId" = COALESCE("stopActorId", ${actorId})
    WHERE "id" = ${runId} AND "status" = 'running' AND "answeredCallsStarted" = true
    RETURNING "stopDueAt"`);
  return row ? { status: "pending", dueAt: readSqlTime(row.stopDueAt) } : { status: "none" };
}

/**
 * The runs whose pending Stop is due at `now`, with who pressed it. Hand-written for the reason
 * `listOrphanedRuns` gives: it runs on the engine's first sweep at start-up (ADR 0043). Every
 * statement that clears `answeredCallsStarted` clears the Stop too, so these are the runs
 * whose calls still run (the cancel checks again).
 */
export async function listDueStops({
  db,
  now,
  limit = 100,
}: {
  db: DbClient;
  now: Date;
  limit?: number;
}): Promise<{ runId: string; actorId: string }[]> {
  const rows = await hotSqlOf(db).query<{ id: string; stopActorId: string }>(sql`
    SELECT "id", "stopActorId" FROM ${sqlTable("Run")}
    WHERE "stopDueAt" <= ${sqlTime(now)} ORDER BY "stopDueAt" ASC LIMIT ${sqlInt(limit)}`);
  return rows.map((row) => ({ runId: row.id, actorId: row.stopActorId }));
}

/** What the statements ending the answered calls' window set besides the flag (ADR 0101). */
export const clearPendingStop = sql`"stopDueAt" = NULL, "stopActorId" = NULL`;
