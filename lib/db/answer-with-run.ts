import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import { webhookOccurrencesOf } from "@/lib/domain/webhooks";
import { auditEntryColumns, auditEntryValues } from "./audit";
import type { DbClient } from "./db-types";
import { prepareEvents } from "./events";
import { hotSqlOf, sql, sqlBool, sqlColumns, sqlInt, sqlRows, sqlTable, sqlTime } from "./hot-sql";
import { postgresTranscriptText } from "./messages";
import { newRowId } from "./row-id";
import { RUN_ROW_COLUMNS, storedRunOfReturned } from "./run-leases";
import type { RunRow, StoredRun } from "./runs";
import { answerColumns, type Resolution, recordOfResolution, resolvedEventBody } from "./settle-request";
import { webhookMessageOf } from "./webhook-outbox";

// PostgreSQL only (ADR 0051): an answer to a parked run's request is one statement, with no
// transaction around it. It locks the run's row, claims the request, counts the answer off the
// run (taking the run back to running when it was the last open one), writes the answer row,
// the audit entry, the `request_resolved` event at the thread's next seq and its webhook outbox
// rows, and reads back the transcript a run it takes resumes from if that run's checkpoint is of
// version 1 (ADR 0054). A single statement is atomic
// by itself, so BEGIN, COMMIT and the event's own statement are three round trips fewer. Every
// write reads the claim's RETURNING, so a lost claim writes nothing and there is nothing to roll
// back; the locks are taken in the order a two-step answer and a cancel take them (run, request,
// thread).

/** Deliveries the statement can write for its one webhook message; more take the transaction. */
const DELIVERIES_PER_STATEMENT = 8;

export type AnswerWithRun =
  | { status: "run_not_waiting" }
  | { status: "lost" }
  /** More endpoints subscribe than the statement writes deliveries for: nothing was written. */
  | { status: "crowded" }
  | { status: "settled"; resumed: StoredRun | null; events: ThreadEvent[]; answeredAt: Date };

/**
 * What `claimParkedRunByLastAnswer` (else the one-off count of `claimRequest`), `settleOpenRequest`
 * and the event's append do in one transaction. `run_not_waiting`: the run is not parked; `lost`:
 * another claim took the request first; `crowded`: see above. In those three nothing is written.
 */
export async function answerWithRun({
  db,
  id,
  threadId,
  runId,
  toolName,
  resolution,
  resolvedAt,
  resumeAs,
}: {
  db: DbClient;
  id: string;
  threadId: string;
  runId: string;
  toolName: string;
  resolution: Extract<Resolution, { status: "answered" }>;
  resolvedAt: Date;
  resumeAs?: { leaseOwner: string; leaseExpiresAt: Date };
}): Promise<AnswerWithRun> {
  const record = recordOfResolution({ id, toolName, resolution });
  const { createdAt, stored, events } = prepareEvents({
    threadId,
    runId,
    bodies: [resolvedEventBody({ id, resolution, answer: record.answer })],
  });
  const [event, row] = [events[0]!, stored[0]!];
  // An answer stands for exactly one occurrence (`request.answered`).
  const [occurrence, ...more] = webhookOccurrencesOf(event);
  if (!occurrence || more.length > 0) return { status: "crowded" };
  const message = webhookMessageOf(occurrence, createdAt);
  const deliveryIds = Array.from({ length: DELIVERIES_PER_STATEMENT }, (_, k) => [newRowId(), sqlInt(k + 1)]);
  const at = sqlTime(resolvedAt);
  // The messages a run this answer takes refers to, when its checkpoint is version 1 (verified
  // whole before the tool runs again, so read here, a round trip fewer); none otherwise: a
  // version-2 transcript is read once the answered tool has started (`loadRunCheckpoint`).
  const resumedUpTo = sql`CASE WHEN "run"."status" = 'running' AND "run"."checkpoint"->>'version' = '1' THEN ("run"."checkpoint"->>'messageCount')::int4 END`;
  const written = sqlTime(createdAt);
  // "free": this answer may take the run (a lease to take it under, and no other request of it
  // open by the rows); it does when the count says this was the last one as well. A run that
  // waits on more gets the plain count-off and a new version, as a two-step answer would.
  const [result] = await hotSqlOf(db).query<
    Record<keyof RunRow, unknown> & {
      locked: number;
      claimed: number;
      subscribers: number;
      seq: number | null;
      transcriptCount: number;
      transcript: string | null;
    }
  >(sql`
    WITH "locked" AS (
      SELECT "id" FROM ${sqlTable("Run")} WHERE "id" = ${runId} AND "status" = 'pending' FOR NO KEY UPDATE
    ), "subscribed" AS (
      SELECT "id", row_number() OVER (ORDER BY "id") AS "k" FROM ${sqlTable("WebhookEndpoint")}
      WHERE "disabled" = false AND "events" @> jsonb_build_array(${occurrence.type}::text)
    ), "claimed" AS (
      UPDATE ${sqlTable("Request")} SET "status" = 'answered', "resolvedAt" = ${at}, "updatedAt" = ${at}
      WHERE "id" = ${id} AND "status" = 'open' AND EXISTS (SELECT 1 FROM "locked")
        AND (SELECT count(*) FROM "subscribed") <= ${sqlInt(DELIVERIES_PER_STATEMENT)}
      RETURNING "id"
    ), "run" AS (
      UPDATE ${sqlTable("Run")} AS "r" SET
        "status" = CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN 'running' ELSE "r"."status" END,
        "leaseOwner" = CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN ${resumeAs?.leaseOwner ?? null} ELSE "r"."leaseOwner" END,
        "leaseExpiresAt" = CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN ${sqlTime(resumeAs?.leaseExpiresAt ?? null)} ELSE "r"."leaseExpiresAt" END,
        "version" = "r"."version" + CASE WHEN "o"."free" AND "r"."openRequests" = 1 THEN 2 ELSE 1 END,
        -- Taking the run lets its answered calls start: a Stop after this commit is refused (ADR 0055).
        "answeredCallsStarted" = "o"."free" AND "r"."openRequests" = 1,
        "openRequests" = "r"."openRequests" - 1,
        "updatedAt" = ${at}
      FROM (SELECT ${sqlBool(resumeAs !== undefined)} AND NOT EXISTS (
        SELECT 1 FROM ${sqlTable("Request")} AS "other"
        WHERE "other"."runId" = ${runId} AND "other"."status" = 'open' AND "other"."id" <> ${id}) AS "free") AS "o"
      -- Still pending: "locked" holds the row since it saw it so.
      WHERE "r"."id" = ${runId} AND EXISTS (SELECT 1 FROM "claimed")
      RETURNING ${sqlColumns(RUN_ROW_COLUMNS)}
    ), "answer" AS (
      INSERT INTO ${sqlTable("Answer")} (${answerColumns})
      SELECT "v".* FROM "claimed", (VALUES ${sqlRows([record.answerRow])}) AS "v" (${answerColumns})
    ), "audit" AS (
      INSERT INTO ${sqlTable("AuditLog")} (${auditEntryColumns})
      SELECT "v".* FROM "claimed", (VALUES ${sqlRows([auditEntryValues(record.audit)])}) AS "v" (${auditEntryColumns})
    ), "taken" AS (
      UPDATE ${sqlTable("Thread")} SET "lastEventSeq" = "lastEventSeq" + 1, "updatedAt" = ${written}
      WHERE "id" = ${threadId} AND EXISTS (SELECT 1 FROM "claimed") RETURNING "lastEventSeq"
    ), "event" AS (
      INSERT INTO ${sqlTable("Event")} ("id", "threadId", "seq", "runId", "type", "payload", "createdAt")
      SELECT ${row.id}, ${threadId}, "lastEventSeq", ${runId}, ${row.type}, ${row.json}, ${written} FROM "taken"
      RETURNING "seq"
    ), "message" AS (
      INSERT INTO ${sqlTable("WebhookMessage")} ("id", "eventKey", "type", "body", "createdAt")
      SELECT ${message.id}, ${occurrence.eventKey}, ${occurrence.type}, ${message.body}, ${written}
      FROM "event" WHERE EXISTS (SELECT 1 FROM "subscribed")
      ON CONFLICT ("eventKey") DO NOTHING RETURNING "id"
    ), "delivery" AS (
      INSERT INTO ${sqlTable("WebhookDelivery")} ("id", "messageId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      SELECT "ids"."id", "message"."id", "subscribed"."id", 'pending', 0, ${written}, ${at}, ${at}
      FROM "message", "subscribed" JOIN (VALUES ${sqlRows(deliveryIds)}) AS "ids" ("id", "k") ON "ids"."k" = "subscribed"."k"
    )
    SELECT "run".*,
      (SELECT count(*)::int4 FROM "locked") AS "locked",
      (SELECT count(*)::int4 FROM "claimed") AS "claimed",
      (SELECT count(*)::int4 FROM "subscribed") AS "subscribers",
      (SELECT "seq" FROM "event") AS "seq",
      "t"."found" AS "transcriptCount", "t"."text" AS "transcript"
    FROM (SELECT 1) AS "one" LEFT JOIN "run" ON true
    -- What a run this answer takes resumes from: its rows' text as written (ADR 0052).
    CROSS JOIN LATERAL (${postgresTranscriptText(threadId, resumedUpTo)}) AS "t"`);
  if (!result || Number(result.locked) !== 1) return { status: "run_not_waiting" };
  if (Number(result.claimed) !== 1) {
    return Number(result.subscribers) > DELIVERIES_PER_STATEMENT ? { status: "crowded" } : { status: "lost" };
  }
  // The request's thread is its foreign key's: a claimed request always has one to append to.
  if (result.seq === null) throw new Error(`thread ${threadId} of claimed request ${id} has no event`);
  event.seq = Number(result.seq);
  // The run left "pending" only if this answer took it.
  const resumed = result.status === "running" ? storedRunOfReturned(result) : null;
  // What a run resumed from version 1 reads first, read by this statement too (a round trip fewer
  // before the retry); `loadRunCheckpoint` takes it only if it is the whole transcript the
  // checkpoint counts.
  if (resumed && result.transcript !== null)
    resumed.transcript = { text: result.transcript, count: Number(result.transcriptCount) };
  return { status: "settled", resumed, events, answeredAt: record.answeredAt };
}
