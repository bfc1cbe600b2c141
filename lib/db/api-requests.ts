import "server-only";
import { randomBytes } from "node:crypto";
import type { EscalationStep } from "@/lib/domain/escalation";
import type { Audience, RequestState, ThreadEvent } from "@/lib/domain/events";
import type { Request } from "@/lib/toolnexus/types";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { insertEscalationSteps } from "./escalation-steps";
import { appendEvents } from "./events";
import { toJson } from "./json";
import { markPropertyOrder } from "./property-order";
import { getRequestById, type StoredRequest, toRequestView, toStoredRequest } from "./requests";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";

// Requests made through the HTTP API (ADR 0034). Each lives in a thread of its own that holds
// no run: the thread's log carries the request's events (`pending` when it is made,
// `request_resolved` when it leaves "open"), so everything that follows events — live pages,
// other instances, outgoing notifications — treats it like a tool's request. The chat lists
// only "chat" threads.

/** The tool name shown for an API request in the inbox and on its page. */
export const API_REQUEST_TOOL = "api";

export interface NewApiRequest {
  ownerId: string;
  apiTokenId: string;
  audience: Audience;
  /** For audience "group": the group's slug and how many of its members must approve. */
  group?: { slug: string; required: number };
  request: Omit<Request, "id">;
  /** Its escalation ladder, written as its steps' rows (ADR 0093). */
  escalation?: EscalationStep[];
  idempotencyKey: string | null;
  /** SHA-256 of the create's normalised body, compared when the key is used again. */
  createHash: string;
}

export type CreatedApiRequest =
  | { status: "created"; request: StoredRequest; events: ThreadEvent[] }
  | { status: "replayed"; request: StoredRequest }
  | { status: "key_reused" };

function newRequestId(): string {
  return `req_${randomBytes(15).toString("base64url")}`;
}

/** What an earlier create with this key made: the same request, or a refusal when the body differs. */
export async function findApiRequestByKey({
  db,
  ownerId,
  idempotencyKey,
  createHash,
}: {
  db: DbClient;
  ownerId: string;
  idempotencyKey: string;
  createHash: string;
}): Promise<Exclude<CreatedApiRequest, { status: "created" }> | null> {
  const row = await db.request.findUnique({
    where: { ownerId_idempotencyKey: { ownerId, idempotencyKey } },
    select: { id: true, createHash: true },
  });
  if (!row) return null;
  if (row.createHash !== createHash) return { status: "key_reused" as const };
  const request = await getRequestById({ db, id: row.id });
  return request ? { status: "replayed" as const, request } : null;
}

/**
 * Makes one request, or finds the one an earlier call with the same Idempotency-Key made. The
 * thread, the request, its audit entry and its `pending` event are one transaction; the unique
 * `(ownerId, idempotencyKey)` decides between two creates racing with one key, and the loser
 * reads the winner's request back.
 */
export async function createApiRequest({
  db,
  input,
}: {
  db: DbClient;
  input: NewApiRequest;
}): Promise<CreatedApiRequest> {
  const { ownerId, idempotencyKey, createHash } = input;
  if (idempotencyKey !== null) {
    const earlier = await findApiRequestByKey({ db, ownerId, idempotencyKey, createHash });
    if (earlier) return earlier;
  }
  try {
    return await insertApiRequest(db, input);
  } catch (error) {
    if (idempotencyKey === null || !isUniqueViolation(error)) throw error;
    const winner = await findApiRequestByKey({ db, ownerId, idempotencyKey, createHash });
    if (!winner) throw error;
    return winner;
  }
}

async function insertApiRequest(db: DbClient, input: NewApiRequest): Promise<CreatedApiRequest> {
  const id = newRequestId();
  const request: Request = { id, ...input.request };
  const { id: requestRowId, events } = await db.$transaction(async (tx) => {
    const thread = await tx.thread.create({
      data: { userId: input.ownerId, kind: "request", title: request.prompt.slice(0, 200) },
      select: { id: true },
    });
    const row = await tx.request.create({
      data: {
        id,
        requestId: id,
        runId: null,
        threadId: thread.id,
        ownerId: input.ownerId,
        toolCallId: "",
        toolName: API_REQUEST_TOOL,
        args: toJson({}),
        kind: request.kind,
        prompt: request.prompt,
        url: request.url ?? null,
        ...(request.data ? { data: toJson(request.data) } : {}),
        expiresAt: request.expiresAt ? new Date(request.expiresAt) : null,
        payload: toJson(markPropertyOrder(request)),
        audience: input.audience,
        ...(input.group ? { audienceGroup: input.group.slug, required: input.group.required } : {}),
        origin: "api",
        idempotencyKey: input.idempotencyKey,
        createHash: input.createHash,
        apiTokenId: input.apiTokenId,
      },
    });
    if (input.escalation?.length)
      await insertEscalationSteps({
        tx,
        requestRowId: row.id,
        askedAt: row.createdAt,
        expiresAt: row.expiresAt,
        steps: input.escalation,
      });
    await recordAuditEntry({
      tx,
      actorId: input.ownerId,
      action: "request.created",
      targetType: "request",
      targetId: id,
      detail: {
        origin: "api",
        kind: request.kind,
        audience: input.audience,
        ...(input.group ? { group: input.group.slug, required: input.group.required } : {}),
        apiTokenId: input.apiTokenId,
      },
    });
    const appended = await appendEvents({
      tx,
      threadId: thread.id,
      runId: null,
      bodies: [{ type: "pending", requests: [toRequestView(row)] }],
    });
    return { id: row.id, events: appended };
  }, engineTransaction);
  const stored = await getRequestById({ db, id: requestRowId });
  if (!stored) throw new Error(`request ${requestRowId} vanished after it was created`);
  return { status: "created", request: stored, events };
}

/** One of the owner's API requests; null for anyone else's, or for a tool's request. */
export async function getApiRequestByOwner({
  db,
  id,
  ownerId,
}: {
  db: DbClient;
  id: string;
  ownerId: string;
}): Promise<StoredRequest | null> {
  const found = await db.request.findFirst({ where: { id, ownerId, origin: "api" }, select: { id: true } });
  return found ? getRequestById({ db, id: found.id }) : null;
}

/**
 * A page of the owner's API requests, newest first, after the cursor (the last id of the page
 * before). Reads `(ownerId, origin, createdAt, id)` in order.
 */
export async function listApiRequestsByOwner({
  db,
  ownerId,
  status,
  after,
  limit,
}: {
  db: DbClient;
  ownerId: string;
  status?: RequestState;
  after?: string;
  limit: number;
}): Promise<{ requests: StoredRequest[]; next: string | null }> {
  const rows = await db.request.findMany({
    where: { ownerId, origin: "api", ...(status ? { status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...(after ? { cursor: { id: after }, skip: 1 } : {}),
    take: limit + 1,
    include: { answer: true },
  });
  const page = rows.slice(0, limit);
  return {
    requests: page.map(toStoredRequest),
    next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
