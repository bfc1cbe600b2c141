import "server-only";
import { createHash } from "node:crypto";
import type { z } from "zod";
import { ladderIssues } from "@/app/_lib/escalation-ladder";
import { authenticateApiToken } from "@/lib/auth/api-token-auth";
import { listApiRequestsByOwner } from "@/lib/db/api-requests";
import type { DbClient } from "@/lib/db/db-types";
import { listEscalationStepsByRequest } from "@/lib/db/escalation-steps";
import type { StoredRequest } from "@/lib/db/requests";
import { listVotes } from "@/lib/db/vote-tallies";
import { AppError } from "@/lib/errors";
import { untilDraining } from "@/lib/http/server-draining.mjs";
import type {
  cancelRequestRoute,
  createRequestRoute,
  listRequestsRoute,
  readRequestRoute,
  requestEventsRoute,
} from "./api-routes";
import { idempotencyKeySchema } from "./api-schemas";
import type { ApiCall, ApiReply, ApiRouteSpec, ApiServices } from "./define-api-route";
import { toApiRequest } from "./to-api-request";

// What each /api/v1/requests call does once its token, scope, rate and input have passed.

export type CallOf<Spec> =
  Spec extends ApiRouteSpec<infer P, infer Q, infer B> ? ApiCall<z.infer<P>, z.infer<Q>, z.infer<B>> : never;

/** The same JSON text for the same body however its keys were ordered. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function idempotencyKeyOf(request: Request): string | null {
  const header = request.headers.get("idempotency-key");
  if (header === null) return null;
  const parsed = idempotencyKeySchema.safeParse(header);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "is not valid";
  throw new AppError("bad_request:input", {
    message: `The request is not valid: the Idempotency-Key header ${message}.`,
    issues: [{ path: "/headers/Idempotency-Key", message }],
  });
}

/** Requests as the API returns them, each with its votes (a group's; none for the rest) and its ladder. */
export async function apiRequestsWithVotes(db: DbClient, stored: StoredRequest[]) {
  const grouped = stored.filter((r) => r.audience === "group").map((r) => r.id);
  const [votes, ladders] = await Promise.all([
    listVotes({ db, requestRowIds: grouped }),
    listEscalationStepsByRequest({ db, requestRowIds: stored.map((r) => r.id) }),
  ]);
  return stored.map((r) => toApiRequest(r, votes.get(r.id), ladders.get(r.id)));
}

export function callerOf(call: { caller: ApiCall<unknown, unknown, unknown>["caller"] }) {
  if (!call.caller) throw new AppError("unauthorized:token");
  return call.caller;
}

export async function createRequestCall(
  call: CallOf<typeof createRequestRoute>,
  { db, engine }: ApiServices,
): Promise<ApiReply> {
  const caller = callerOf(call);
  const { audience, escalation, ...request } = call.body;
  if (escalation?.length) {
    const expiresInMs = request.expiresAt ? Date.parse(request.expiresAt) - Date.now() : undefined;
    const issues = await ladderIssues(db, escalation, { expiresInMs, base: "/escalation" });
    if (issues.length > 0)
      throw new AppError("bad_request:input", {
        message: `The request is not valid: ${issues[0]!.path.slice(1).replaceAll("/", ".")} ${issues[0]!.message}`,
        issues,
      });
  }
  const idempotencyKey = idempotencyKeyOf(call.request);
  // What makes a retry the same request: everything but the deadline, which a restarted client
  // computes afresh (the request keeps the one it was made with), and the audience, which the
  // engine compares once its default is applied (an explicit default means the same).
  const { expiresAt: _deadline, audience: _audience, ...sameness } = call.body;
  const created = await engine.createRequest({
    owner: caller.actor,
    apiTokenId: caller.tokenId,
    request,
    ...(audience ? { audience } : {}),
    ...(escalation?.length ? { escalation } : {}),
    idempotencyKey,
    createHash: createHash("sha256").update(canonicalJson(sameness)).digest("hex"),
  });
  const location = `/api/v1/requests/${encodeURIComponent(created.request.id)}`;
  return created.replayed
    ? {
        status: 200,
        body: (await apiRequestsWithVotes(db, [created.request]))[0]!,
        headers: { "Idempotent-Replayed": "true", Location: location },
      }
    : {
        status: 201,
        body: (await apiRequestsWithVotes(db, [created.request]))[0]!,
        headers: { Location: location },
      };
}

export async function listRequestsCall(
  call: CallOf<typeof listRequestsRoute>,
  { db, engine }: ApiServices,
): Promise<ApiReply> {
  const caller = callerOf(call);
  const { status, after, limit } = call.query;
  // As the inbox does: a request past its time reads as expired, not as still open until the
  // next sweep (a second at most), so a status filter never lists it on the wrong side.
  await engine.expireDueRequests();
  const page = await listApiRequestsByOwner({
    db,
    ownerId: caller.actor.id,
    ...(status ? { status } : {}),
    ...(after ? { after } : {}),
    limit: limit ?? 20,
  });
  return { status: 200, body: { requests: await apiRequestsWithVotes(db, page.requests), next: page.next } };
}

export async function readRequestCall(
  call: CallOf<typeof readRequestRoute>,
  { db, engine }: ApiServices,
): Promise<ApiReply> {
  const caller = callerOf(call);
  const input = { requestId: call.params.id, ownerId: caller.actor.id };
  const wait = call.query.wait ?? 0;
  const stored =
    wait > 0
      ? await engine.waitForRequest({
          ...input,
          timeoutMs: wait * 1000,
          signal: untilDraining(call.request.signal),
        })
      : await engine.readOwnRequest(input);
  const [body] = await apiRequestsWithVotes(db, [stored]);
  return { status: 200, body };
}

export async function cancelRequestCall(
  call: CallOf<typeof cancelRequestRoute>,
  { engine }: ApiServices,
): Promise<ApiReply> {
  const caller = callerOf(call);
  const stored = await engine.cancelRequest({ requestId: call.params.id, ownerId: caller.actor.id });
  return { status: 200, body: toApiRequest(stored) };
}

const HEARTBEAT_MS = 15_000;
const STREAM_MAX_MS = 10 * 60_000;

/**
 * The request as server-sent events: now, and again once it leaves "open", then the end. The
 * first read happens before the response starts, so an unknown id is a JSON 404, not a stream.
 */
export async function requestEventsCall(
  call: CallOf<typeof requestEventsRoute>,
  { db, engine, streamHeartbeatMs = HEARTBEAT_MS }: ApiServices,
): Promise<ApiReply> {
  const caller = callerOf(call);
  const input = { requestId: call.params.id, ownerId: caller.actor.id };
  const first = await engine.readOwnRequest(input);
  const authorization = call.request.headers.get("authorization");
  const encoder = new TextEncoder();
  // A stopping server ends the stream; the client reconnects to a peer.
  const signal = untilDraining(call.request.signal);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      const event = (stored: typeof first) =>
        send(`event: request\ndata: ${JSON.stringify(toApiRequest(stored))}\n\n`);
      try {
        event(first);
        const until = Date.now() + STREAM_MAX_MS;
        let current = first;
        while (current.status === "open" && !signal.aborted && Date.now() < until) {
          current = await engine.waitForRequest({ ...input, timeoutMs: streamHeartbeatMs, signal });
          // A token revoked (or expired) meanwhile ends its streams at the next beat (throws).
          await authenticateApiToken({ db, authorization });
          if (current.status !== "open") event(current);
          else send(": still open\n\n");
        }
      } catch {
        // The client left, its token was revoked, or the request could not be read any more.
      } finally {
        try {
          controller.close();
        } catch {
          // Already cancelled by the client.
        }
      }
    },
  });
  return {
    status: 200,
    stream,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // Proxies (nginx) must pass the events on as they come.
      "X-Accel-Buffering": "no",
    },
  };
}
