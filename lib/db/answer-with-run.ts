import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import { auditEntryColumns, auditEntryValues } from "./audit";
import type { DbTx } from "./db-types";
import { hotSqlOf, sql, sqlBool, sqlColumns, sqlRows, sqlTable, sqlTime } from "./hot-sql";
import { RUN_ROW_COLUMNS, storedRunOfReturned } from "./run-leases";
import type { RunRow, StoredRun } from "./runs";
import { answerColumns, appendResolvedEvent, type Resolution, recordOfResolution } from "./settle-request";

// PostgreSQL only (ADR 0050): an answer to a parked run's request counts itself off the run
// (taking the run back to running when it was the last open one), claims the request and writes
// its answer row and audit entry in one statement instead of two. The run's row is still the
// first locked: the request's update reads the run's RETURNING, so it cannot run before it.

export type AnswerWithRun =
  | { status: "run_not_waiting" }
  | { status: "lost" }
  | { status: "settled"; resumed: StoredRun | null; events: ThreadEvent[]; answeredAt: Date };

/**
 * What `claimParkedRunByLastAnswer`, else the one-off count of `claimRequest`, and then
 * `settleOpenRequest` do as three statements. `run_not_waiting`: the run is not parked (nothing
 * was written); `lost`: another claim took the request first (the caller rolls back the run's
 * count); `settled`: this transaction answered it.
 */
export async function answerWithRun({
  tx,
  id,
  threadId,
  runId,
  toolName,
  resolution,
  resolvedAt,
  resumeAs,
}: {
  tx: DbTx;
  id: string;
  threadId: string;
  runId: string;
  toolName: string;
  resolution: Extract<Resolution, { status: "answered" }>;
  resolvedAt: Date;
  resumeAs?: { leaseOwner: string; leaseExpiresAt: Date };
}): Promise<AnswerWithRun> {
  const record = recordOfResolution({ id, toolName, resolution });
  const at = sqlTime(resolvedAt);
  // "free": this answer may take the run (a lease to take it under, and no other request of it
  // open by the rows); it does when the count says this was the last one as well. A run that
  // waits on more gets the plain count-off and a new version, as a two-step answer would.
  const [row] = await hotSqlOf(tx).query<Record<keyof RunRow, unknown> & { claimed: number }>(sql`
    WITH "run" AS (
      UPDATE ${sqlTable("Run")} AS "r" SET
        "status" = CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN 'running' ELSE "r"."status" END,
        "leaseOwner" = CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN ${resumeAs?.leaseOwner ?? null} ELSE "r"."leaseOwner" END,
        "leaseExpiresAt" = CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN ${sqlTime(resumeAs?.leaseExpiresAt ?? null)} ELSE "r"."leaseExpiresAt" END,
        "version" = "r"."version" + CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN 2 ELSE 1 END,
        "openRequests" = "r"."openRequests" - 1,
        "updatedAt" = ${at}
      FROM (SELECT ${sqlBool(resumeAs !== undefined)} AND NOT EXISTS (
        SELECT 1 FROM ${sqlTable("Request")} AS "other"
        WHERE "other"."runId" = ${runId} AND "other"."status" = 'open' AND "other"."id" <> ${id}) AS "free") AS "o"
      WHERE "r"."id" = ${runId} AND "r"."status" = 'pending'
      RETURNING ${sqlColumns(RUN_ROW_COLUMNS)}
    ), "claimed" AS (
      UPDATE ${sqlTable("Request")} SET "status" = 'answered', "resolvedAt" = ${at}, "updatedAt" = ${at}
      WHERE "id" = ${id} AND "status" = 'open' AND EXISTS (SELECT 1 FROM "run")
      RETURNING "id"
    ), "answer" AS (
      INSERT INTO ${sqlTable("Answer")} (${answerColumns})
      SELECT "v".* FROM "claimed", (VALUES ${sqlRows([record.answerRow])}) AS "v" (${answerColumns})
    ), "audit" AS (
      INSERT INTO ${sqlTable("AuditLog")} (${auditEntryColumns})
      SELECT "v".* FROM "claimed", (VALUES ${sqlRows([auditEntryValues(record.audit)])}) AS "v" (${auditEntryColumns})
    )
    SELECT "run".*, (SELECT count(*)::int4 FROM "claimed") AS "claimed" FROM "run"`);
  if (!row) return { status: "run_not_waiting" };
  if (Number(row.claimed) !== 1) return { status: "lost" };
  // The run left "pending" only if this answer took it.
  const resumed = row.status === "running" ? storedRunOfReturned(row) : null;
  const events = await appendResolvedEvent({ tx, id, threadId, runId, resolution, answer: record.answer });
  return { status: "settled", resumed, events, answeredAt: record.answeredAt };
}
