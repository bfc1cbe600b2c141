import "server-only";
import type { Audience, ParkedRequestView, RequestState } from "@/lib/domain/events";
import type { DeclineReason, Request } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { restorePropertyOrder } from "./property-order";
import { hotSqlOf, readSqlJson, readSqlTime, sql, sqlInt, sqlTable, sqlTime } from "./sql/hot-sql";

export interface StoredAnswer {
  actorId: string | null;
  /** Whom the actor answered for, when covering for someone away (ADR 0098). */
  forUserId?: string;
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: DeclineReason;
  createdAt: string;
}

export interface StoredRequest extends ParkedRequestView {
  threadId: string;
  ownerId: string;
  /** For audience "group": the group's slug; null otherwise. */
  audienceGroup: string | null;
  /** How many distinct members must approve (1 for every other audience). */
  required: number;
  createdAt: string;
  resolvedAt: string | null;
  answer: StoredAnswer | null;
}

interface RequestRow {
  id: string;
  runId: string | null;
  threadId: string;
  ownerId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  payload: unknown;
  audience: string;
  audienceGroup?: string | null;
  required?: number;
  status: string;
  createdAt: Date;
  resolvedAt: Date | null;
  answer?: {
    actorId: string | null;
    forUserId?: string | null;
    ok: boolean;
    data: unknown;
    reason: string | null;
    createdAt: Date;
  } | null;
}

/** What of a request's row its view shows (`toRequestView`). */
export type RequestViewRow = Pick<
  RequestRow,
  "id" | "payload" | "runId" | "toolCallId" | "toolName" | "args" | "audience" | "status"
>;

export function toRequestView(row: RequestViewRow): ParkedRequestView {
  return {
    id: row.id,
    request: restorePropertyOrder(row.payload as Request),
    runId: row.runId,
    toolCallId: row.toolCallId,
    toolName: row.toolName,
    args: row.args as Record<string, unknown>,
    audience: row.audience as Audience,
    status: row.status as RequestState,
  };
}

/** A request without its answer. */
export type BareRequest = Omit<StoredRequest, "answer">;

function toBareRequest(row: RequestRow): BareRequest {
  return {
    ...toRequestView(row),
    threadId: row.threadId,
    ownerId: row.ownerId,
    audienceGroup: row.audienceGroup ?? null,
    required: row.required ?? 1,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

export function toStoredRequest(row: RequestRow): StoredRequest {
  const { answer } = row;
  return {
    ...toBareRequest(row),
    answer: answer
      ? {
          actorId: answer.actorId,
          ...(answer.forUserId ? { forUserId: answer.forUserId } : {}),
          ok: answer.ok,
          ...(answer.data ? { data: answer.data as Record<string, unknown> } : {}),
          ...(answer.reason ? { reason: answer.reason as DeclineReason } : {}),
          createdAt: answer.createdAt.toISOString(),
        }
      : null,
  };
}

export async function getRequestById({
  db,
  id,
}: {
  db: DbClient;
  id: string;
}): Promise<StoredRequest | null> {
  const row = await db.request.findUnique({ where: { id }, include: { answer: true } });
  return row ? toStoredRequest(row) : null;
}

/**
 * The request alone, in one query where `getRequestById` takes two: what answering needs, since
 * an open request has no answer yet (its answer row is written by the claim that closes it).
 */
export async function getBareRequestById({
  db,
  id,
}: {
  db: DbClient;
  id: string;
}): Promise<BareRequest | null> {
  // Read before every answer, so one of the hot statements (ADR 0045).
  const [row] = await hotSqlOf(db).query<Record<keyof Omit<RequestRow, "answer">, unknown>>(sql`
    SELECT "id", "runId", "threadId", "ownerId", "toolCallId", "toolName", "args", "payload", "audience",
      "audienceGroup", "required", "status", "createdAt", "resolvedAt"
    FROM ${sqlTable("Request")} WHERE "id" = ${id}`);
  if (!row) return null;
  return toBareRequest({
    id: row.id as string,
    runId: row.runId as string | null,
    threadId: row.threadId as string,
    ownerId: row.ownerId as string,
    toolCallId: row.toolCallId as string,
    toolName: row.toolName as string,
    args: readSqlJson(row.args),
    payload: readSqlJson(row.payload),
    audience: row.audience as string,
    audienceGroup: row.audienceGroup as string | null,
    required: Number(row.required),
    status: row.status as string,
    createdAt: readSqlTime(row.createdAt),
    resolvedAt: row.resolvedAt === null ? null : readSqlTime(row.resolvedAt),
  });
}

/** The rows behind a checkpoint's suspended slots, keyed by the request id on the wire (`Request.id`). */
export async function listRequestsByWireIds({
  db,
  runId,
  wireIds,
}: {
  db: DbClient;
  runId: string;
  wireIds: string[];
}): Promise<Map<string, StoredRequest>> {
  const rows = await db.request.findMany({
    where: { runId, requestId: { in: wireIds } },
    include: { answer: true },
  });
  return new Map(rows.map((row) => [row.requestId, toStoredRequest(row)]));
}

export async function listDueRequests({
  db,
  now,
  limit = 100,
}: {
  db: DbClient;
  now: Date;
  limit?: number;
}): Promise<{ id: string; runId: string | null; threadId: string; toolName: string }[]> {
  // Hand-written for the reason `listOrphanedRuns` gives: it runs at engine start-up (ADR 0043).
  const rows = await hotSqlOf(db).query<{
    id: string;
    runId: string | null;
    threadId: string;
    toolName: string;
  }>(
    sql`SELECT "id", "runId", "threadId", "toolName" FROM ${sqlTable("Request")}
      WHERE "status" = ${"open"} AND "expiresAt" <= ${sqlTime(now)} ORDER BY "expiresAt" ASC LIMIT ${sqlInt(limit)}`,
  );
  return rows.map(({ id, runId, threadId, toolName }) => ({ id, runId, threadId, toolName }));
}
