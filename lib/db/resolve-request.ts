import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import type { DbClient, DbTx } from "./db-types";
import { appendEvents, composeEventAppend } from "./events";
import { countOffRunSql, type RunLease, storedRunOfReturned } from "./run-leases";
import type { RunRow, StoredRun } from "./runs";
import {
  claimOpenRequestSql,
  type Resolution,
  recordedRowsSql,
  recordOfResolution,
  resolvedEventBody,
} from "./settle-request";
import { hotSqlOf, type SqlStatement, sql, sqlJoin, sqlTable } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";

export type { Resolution, RunLease };

// Resolving a request, the one way it leaves "open" whoever races for it: the conditional
// update that claims it; its answer and audit entry; its `request_resolved` event through the
// log's one writer (events.ts), with that writer's outboxes; the request counted off its run;
// and, for an answer told to, the run taken back to running when this was its last open
// request. `recordResolution` composes these statements once for both databases: on PostgreSQL
// an answer to a run's request is one statement (ADR 0051), anything else a transaction.

type Resolved =
  | { claimed: false }
  | {
      claimed: true;
      runId: string | null;
      events: ThreadEvent[];
      resolvedAt: Date;
      answeredAt: Date;
      /** The run this answer took back to running under `takeRunUnder`, if it did. */
      takenRun: StoredRun | null;
    };

interface Target {
  db: DbClient;
  id: string;
  /**
   * The request's run and thread when the caller has read them already (they never change); a
   * null run is a request made through the HTTP API, which no run counts or waits on.
   */
  runId?: string | null;
  threadId?: string;
  /** The request's tool, copied onto its answer for the audit; read with the rest when missing. */
  toolName?: string;
}

/** Moves one open request to its final state, exactly once, and counts it off its run. */
export function resolveRequest(target: Target & { resolution: Resolution }): Promise<Resolved> {
  return recordResolution(target);
}

/**
 * An answer that, when it settles its run's last open request, also takes the run back to
 * running under `lease` in the same statement or transaction (`takenRun`): the caller then drives
 * it, with no claim of the run after the commit.
 */
export function answerRequestTakingRun(
  target: Target & { resolution: Extract<Resolution, { status: "answered" }>; lease: RunLease },
): Promise<Resolved> {
  return recordResolution({ ...target, takeRunUnder: target.lease });
}

async function recordResolution({
  db,
  id,
  resolution,
  takeRunUnder,
  ...known
}: Target & { resolution: Resolution; takeRunUnder?: RunLease }): Promise<Resolved> {
  // The owner never changes, so it may be read apart from the claim.
  const owner =
    known.runId !== undefined && known.threadId !== undefined && known.toolName !== undefined
      ? { runId: known.runId, threadId: known.threadId, toolName: known.toolName }
      : await readRequestOwner({ db, id });
  if (!owner) return { claimed: false };
  const { runId, threadId } = owner;
  const resolvedAt = new Date();
  const record = recordOfResolution({ id, toolName: owner.toolName, resolution });
  const bodies = [resolvedEventBody({ id, resolution, answer: record.answer })];
  const answered = resolution.status === "answered";
  const claim = (when?: SqlStatement) =>
    claimOpenRequestSql({ id, status: resolution.status, resolvedAt, when });
  const countOff = (run: string, when?: SqlStatement) =>
    countOffRunSql({ runId: run, requestRowId: id, answered, takeUnder: takeRunUnder, at: resolvedAt, when });
  const resolved = (events: ThreadEvent[], taken: Record<keyof RunRow, unknown> | undefined) => ({
    claimed: true as const,
    runId,
    events,
    resolvedAt,
    answeredAt: record.answeredAt,
    // The run left "pending" only if this answer was told to take it, and did.
    takenRun: takeRunUnder && taken?.status === "running" ? storedRunOfReturned(taken) : null,
  });

  // PostgreSQL, an answer to a run's request: one statement, with no transaction around it. It
  // locks the run's row, claims the request, counts it off the run, writes the answer and the
  // audit entry, and appends the event with its outboxes as the log's writer composes them.
  // Every write reads the claim's RETURNING, so a lost claim writes nothing; the locks are
  // taken in the order a transaction's answer and a cancel take them (run, request, thread).
  const appended =
    hotSqlOf(db).provider === "postgres" && runId !== null && answered
      ? composeEventAppend({ threadId, runId, bodies, after: sql`"claimed"` })
      : null;
  if (appended && runId !== null) {
    const [row] = await hotSqlOf(db).query<Record<keyof RunRow, unknown> & Record<string, unknown>>(sql`
      WITH "locked" AS (
        SELECT "id" FROM ${sqlTable("Run")} WHERE "id" = ${runId} AND "status" = 'pending' FOR NO KEY UPDATE
      ), ${sqlJoin(
        [
          ...appended.before,
          sql`"claimed" AS (${claim(sql`EXISTS (SELECT 1 FROM "locked") AND ${appended.guard}`)})`,
          // Still pending: "locked" holds the row since it saw it so.
          sql`"run" AS (${countOff(runId, sql`EXISTS (SELECT 1 FROM "claimed")`)})`,
          ...recordedRowsCtes(record),
          ...appended.after,
        ],
        ", ",
      )}
      SELECT "run".*, (SELECT count(*)::int4 FROM "locked") AS "locked",
        (SELECT count(*)::int4 FROM "claimed") AS "claimed", ${appended.columns}
      FROM (SELECT 1) AS "one" LEFT JOIN "run" ON true`);
    if (!row || Number(row.locked) !== 1) return { claimed: false };
    if (Number(row.claimed) === 1) return resolved(appended.read(row), row);
    // Too many webhook endpoints for one statement: nothing was written, the transaction below.
    if (!appended.crowded(row)) return { claimed: false };
  }

  // Anywhere else, the same statements in one transaction. The run's row is written before the
  // request's, as a cancel writes them, so the two queue on it instead of deadlocking.
  try {
    return await hotTransaction(db, async (tx) => {
      const taken =
        runId === null
          ? undefined
          : (await hotSqlOf(tx).query<Record<keyof RunRow, unknown>>(countOff(runId)))[0];
      if (runId !== null && !taken) return { claimed: false as const };
      // The run's count is already written: a lost claim rolls it back by throwing.
      if (!(await claimAndRecord(tx, claim(), record))) throw new LostClaim();
      return resolved(await appendEvents({ tx, threadId, runId, bodies }), taken);
    });
  } catch (error) {
    if (error instanceof LostClaim) return { claimed: false };
    throw error;
  }
}

class LostClaim extends Error {}

/** The rows a claim records as CTEs of its statement, each written only if `"claimed"` took the request. */
function recordedRowsCtes(record: Parameters<typeof recordedRowsSql>[0]): SqlStatement[] {
  const { answer, audit } = recordedRowsSql(record, sql`"claimed"`);
  return [sql`"answer" AS (${answer})`, sql`"audit" AS (${audit})`];
}

/**
 * In the caller's transaction: the claim and the rows it records, one statement on PostgreSQL
 * (two round trips fewer, ADR 0050), one statement each on SQLite. False when the claim lost
 * (then nothing is written).
 */
async function claimAndRecord(
  tx: DbTx,
  claim: SqlStatement,
  record: Parameters<typeof recordedRowsSql>[0],
): Promise<boolean> {
  const hot = hotSqlOf(tx);
  if (hot.provider === "postgres") {
    const [row] = await hot.query<{ claimed: number }>(sql`
      WITH "claimed" AS (${claim}), ${sqlJoin(recordedRowsCtes(record), ", ")}
      SELECT count(*)::int4 AS "claimed" FROM "claimed"`);
    return Number(row?.claimed ?? 0) === 1;
  }
  if ((await hot.query(claim)).length !== 1) return false;
  const { answer, audit } = recordedRowsSql(record);
  await hot.execute(answer);
  await hot.execute(audit);
  return true;
}

async function readRequestOwner({ db, id }: { db: DbClient; id: string }) {
  const [row] = await hotSqlOf(db).query<{ runId: string | null; threadId: string; toolName: string }>(
    sql`SELECT "runId", "threadId", "toolName" FROM ${sqlTable("Request")} WHERE "id" = ${id}`,
  );
  return row ?? null;
}

/** Inside a cancel: every open request of the run is answered "cancelled" by the system. */
export async function cancelOpenRequestsByRun({
  tx,
  runId,
  threadId,
  actorId,
}: {
  tx: DbTx;
  runId: string;
  threadId: string;
  actorId: string;
}): Promise<ThreadEvent[]> {
  const open = await tx.request.findMany({
    where: { runId, status: "open" },
    select: { id: true, toolName: true },
  });
  const events: ThreadEvent[] = [];
  let closed = 0;
  for (const { id, toolName } of open) {
    const resolution: Resolution = { status: "cancelled", actorId };
    const record = recordOfResolution({ id, toolName, resolution });
    const claim = claimOpenRequestSql({ id, status: "cancelled", resolvedAt: new Date() });
    if (!(await claimAndRecord(tx, claim, record))) continue;
    closed += 1;
    const bodies = [resolvedEventBody({ id, resolution, answer: record.answer })];
    events.push(...(await appendEvents({ tx, threadId, runId, bodies })));
  }
  if (closed > 0) {
    await tx.run.update({ where: { id: runId }, data: { openRequests: { decrement: closed } } });
  }
  return events;
}
