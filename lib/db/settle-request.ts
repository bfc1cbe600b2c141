import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { Answer } from "@/lib/toolnexus/types";
import { type AuditEntry, auditEntryColumns, auditEntryValues, recordAuditEntry } from "./audit";
import type { DbTx } from "./db-types";
import { appendEvents } from "./events";
import {
  hotSqlOf,
  type SqlValue,
  sql,
  sqlBool,
  sqlColumns,
  sqlJson,
  sqlRows,
  sqlTable,
  sqlTime,
} from "./hot-sql";
import { newRowId } from "./row-id";

// A request leaving "open": the conditional update that is the claim, then its answer row, its
// audit entry and its event, all in the caller's transaction. On SQLite these are separate
// statements (each costs no round trip); on PostgreSQL the claim, the answer and the audit entry
// are one data-modifying statement, two round trips fewer on every answer (ADR 0050).

export type Resolution =
  | { status: "answered"; answer: Answer; actorId: string }
  | { status: "expired" | "cancelled"; actorId: string | null };

export const answerColumns = sqlColumns([
  "id",
  "requestRowId",
  "actorId",
  "ok",
  "data",
  "reason",
  "toolName",
  "createdAt",
]);

/**
 * Claims the open request and records how it ended; null when another transaction took it first
 * (then nothing is written). The caller has written the run's row already (see claim-request.ts).
 */
export async function settleOpenRequest({
  tx,
  id,
  threadId,
  runId,
  toolName,
  resolution,
  resolvedAt,
}: {
  tx: DbTx;
  id: string;
  threadId: string;
  runId: string | null;
  toolName: string;
  resolution: Resolution;
  resolvedAt: Date;
}): Promise<{ events: ThreadEvent[]; answeredAt: Date } | null> {
  const record = recordOfResolution({ id, toolName, resolution });
  const claim = { tx, id, status: resolution.status, resolvedAt };
  const claimed =
    hotSqlOf(tx).provider === "postgres"
      ? await claimRecordingAnswer({ ...claim, ...record })
      : (await claimOpenRequest(claim)) && (await recordAnswer({ tx, ...record }));
  if (!claimed) return null;
  const events = await appendResolvedEvent({ tx, id, threadId, runId, resolution, answer: record.answer });
  return { events, answeredAt: record.answeredAt };
}

/** The rows a resolution leaves beside the request's own: its answer and its audit entry. */
export function recordOfResolution({
  id,
  toolName,
  resolution,
}: {
  id: string;
  toolName: string;
  resolution: Resolution;
}): { answer: Omit<Answer, "id">; answeredAt: Date; answerRow: SqlValue[]; audit: AuditEntry } {
  const answer: Omit<Answer, "id"> =
    resolution.status === "answered"
      ? resolution.answer
      : { ok: false, reason: resolution.status === "expired" ? "expired" : "cancelled" };
  const answeredAt = new Date();
  const answerRow: SqlValue[] = [
    newRowId(),
    id,
    resolution.actorId,
    sqlBool(answer.ok),
    sqlJson(answer.data ? JSON.stringify(answer.data) : null),
    answer.reason ?? null,
    toolName,
    sqlTime(answeredAt),
  ];
  const audit: AuditEntry = {
    actorId: resolution.actorId,
    action: `request.${resolution.status}`,
    targetType: "request",
    targetId: id,
    detail: { ok: answer.ok, ...(answer.reason ? { reason: answer.reason } : {}) },
  };
  return { answer, answeredAt, answerRow, audit };
}

/** The thread's `request_resolved` event, with its outboxes. */
export function appendResolvedEvent({
  tx,
  id,
  threadId,
  runId,
  resolution,
  answer,
}: {
  tx: DbTx;
  id: string;
  threadId: string;
  runId: string | null;
  resolution: Resolution;
  answer: Omit<Answer, "id">;
}): Promise<ThreadEvent[]> {
  return appendEvents({ tx, threadId, runId, bodies: [resolvedEventBody({ id, resolution, answer })] });
}

/** The body of the `request_resolved` event a resolution appends. */
export function resolvedEventBody({
  id,
  resolution,
  answer,
}: {
  id: string;
  resolution: Resolution;
  answer: Omit<Answer, "id">;
}): EventBody {
  return {
    type: "request_resolved",
    id,
    status: resolution.status,
    ok: answer.ok,
    ...(answer.reason ? { reason: answer.reason } : {}),
    ...(resolution.actorId ? { actorId: resolution.actorId } : {}),
  };
}

interface Claim {
  tx: DbTx;
  id: string;
  status: Resolution["status"];
  resolvedAt: Date;
}

/** The claim itself: true when this transaction is the one that moved the request out of "open". */
async function claimOpenRequest({ tx, id, status, resolvedAt }: Claim): Promise<boolean> {
  const at = sqlTime(resolvedAt);
  const claimed = await hotSqlOf(tx).execute(
    sql`UPDATE ${sqlTable("Request")} SET "status" = ${status}, "resolvedAt" = ${at}, "updatedAt" = ${at} WHERE "id" = ${id} AND "status" = 'open'`,
  );
  return claimed === 1;
}

async function recordAnswer({
  tx,
  answerRow,
  audit,
}: {
  tx: DbTx;
  answerRow: SqlValue[];
  audit: AuditEntry;
}) {
  await hotSqlOf(tx).execute(
    sql`INSERT INTO ${sqlTable("Answer")} (${answerColumns}) VALUES ${sqlRows([answerRow])}`,
  );
  await recordAuditEntry({ tx, ...audit });
  return true;
}

/**
 * PostgreSQL: the claim and both rows as one statement. The inserts read from the claim's
 * RETURNING, so a lost claim (no row moved out of "open", also after waiting for a racing
 * claim's commit) inserts nothing; the request's row lock is taken first, as before.
 */
async function claimRecordingAnswer({
  tx,
  id,
  status,
  resolvedAt,
  answerRow,
  audit,
}: Claim & { answerRow: SqlValue[]; audit: AuditEntry }): Promise<boolean> {
  const at = sqlTime(resolvedAt);
  const [row] = await hotSqlOf(tx).query<{ claimed: number }>(sql`
    WITH "claimed" AS (
      UPDATE ${sqlTable("Request")} SET "status" = ${status}, "resolvedAt" = ${at}, "updatedAt" = ${at}
      WHERE "id" = ${id} AND "status" = 'open' RETURNING "id"
    ), "answer" AS (
      INSERT INTO ${sqlTable("Answer")} (${answerColumns})
      SELECT "v".* FROM "claimed", (VALUES ${sqlRows([answerRow])}) AS "v" (${answerColumns})
    ), "audit" AS (
      INSERT INTO ${sqlTable("AuditLog")} (${auditEntryColumns})
      SELECT "v".* FROM "claimed", (VALUES ${sqlRows([auditEntryValues(audit)])}) AS "v" (${auditEntryColumns})
    )
    SELECT count(*)::int4 AS "claimed" FROM "claimed"`);
  return Number(row?.claimed ?? 0) === 1;
}
