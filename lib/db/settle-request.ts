import "server-only";
import type { EventBody } from "@/lib/domain/events";
import type { Answer } from "@/lib/toolnexus/types";
import { type AuditEntry, insertAuditEntriesSql } from "./audit";
import {
  type SqlStatement,
  type SqlValue,
  sql,
  sqlBool,
  sqlColumns,
  sqlInsertRows,
  sqlJson,
  sqlTable,
  sqlTime,
} from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";

// A request leaving "open": the conditional update that is the claim, then its answer row and its
// audit entry. These are the statements resolve-request.ts composes into one answer; each is
// written once, as a statement of its own (SQLite, where a statement costs no round trip) or as
// a CTE after the claim (PostgreSQL, where the claim and both rows are one statement).

export type Resolution =
  /** `actorId` null: the system answered (an escalation step that declines, ADR 0093). */
  | {
      status: "answered";
      answer: Answer;
      actorId: string | null;
      /** Whom the actor answered for, when covering for someone away (ADR 0098). */
      forUserId?: string | null;
    }
  | { status: "expired" | "cancelled"; actorId: string | null };

const answerColumns = sqlColumns([
  "id",
  "requestRowId",
  "actorId",
  "ok",
  "data",
  "reason",
  "forUserId",
  "toolName",
  "createdAt",
]);

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
  const forUserId = resolution.status === "answered" ? (resolution.forUserId ?? null) : null;
  const answerRow: SqlValue[] = [
    newRowId(),
    id,
    resolution.actorId,
    sqlBool(answer.ok),
    sqlJson(answer.data ? JSON.stringify(answer.data) : null),
    answer.reason ?? null,
    forUserId,
    toolName,
    sqlTime(answeredAt),
  ];
  const audit: AuditEntry = {
    actorId: resolution.actorId,
    action: `request.${resolution.status}`,
    targetType: "request",
    targetId: id,
    detail: {
      ok: answer.ok,
      ...(answer.reason ? { reason: answer.reason } : {}),
      ...(forUserId ? { for: forUserId } : {}),
    },
  };
  return { answer, answeredAt, answerRow, audit };
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
    ...(resolution.status === "answered" && resolution.forUserId ? { forUserId: resolution.forUserId } : {}),
  };
}

/**
 * The claim: moves the request out of "open", returning its id when this statement is the one
 * that did. `when`: what else the claim waits for, within the statement it is part of.
 */
export function claimOpenRequestSql({
  id,
  status,
  resolvedAt,
  when,
}: {
  id: string;
  status: Resolution["status"];
  resolvedAt: Date;
  when?: SqlStatement;
}): SqlStatement {
  const at = sqlTime(resolvedAt);
  return sql`UPDATE ${sqlTable("Request")} SET "status" = ${status}, "resolvedAt" = ${at}, "updatedAt" = ${at}
    WHERE "id" = ${id} AND "status" = 'open'${when ? sql` AND ${when}` : sql``} RETURNING "id"`;
}

/** The answer table's one INSERT, after the CTE `after` if given (see `sqlInsertRows`). */
export function insertAnswerSql(answerRow: SqlValue[], after?: SqlStatement): SqlStatement {
  return sql`INSERT INTO ${sqlTable("Answer")} ${sqlInsertRows(answerColumns, [answerRow], after)}`;
}

/**
 * The rows a claim records: the answer and its audit entry, each after the CTE `after` if given
 * (PostgreSQL's form, CTEs of the claim's statement), else one statement each (SQLite's).
 */
export function recordedRowsSql(
  record: { answerRow: SqlValue[]; audit: AuditEntry },
  after?: SqlStatement,
): { answer: SqlStatement; audit: SqlStatement } {
  return {
    answer: insertAnswerSql(record.answerRow, after),
    audit: insertAuditEntriesSql([record.audit], after),
  };
}
