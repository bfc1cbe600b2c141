import "server-only";
import {
  A2A_VERSION_HEADER,
  type AgentCard,
  formatSSEErrorEvent,
  formatSSEEvent,
  SSE_HEADERS,
} from "@a2a-js/sdk";
import { A2A_LEGACY_PROTOCOL_VERSION } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import { publicErrorOf } from "@/app/_lib/public-error";
import { reportUnexpected } from "@/app/_lib/report-unexpected";
import { authenticateApiToken, countApiCall, ensureScope, type TokenCaller } from "@/lib/auth/api-token-auth";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError, errorHeaders } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request-body-check";
import { A2A_SCOPE, buildAgentCard } from "./agent-card";
import type { PushServices } from "./push-configs";
import { createRunRequestHandler } from "./run-request-handler";

// The A2A endpoint at /api/a2a (ADR 0084): the app's token check, rate limit and body limit, then
// the SDK's own JSON-RPC transport (v1.0, or v0.3 for a peer that asks for it or names no
// version) over the run-backed handler. No JSON-RPC is read or written here.

export interface A2AServices {
  db: DbClient;
  engine: Engine;
  /** The card to serve; built from the app's tools when not given. */
  card?: AgentCard;
  /** Push config sealing and address rule; the app's own when not given. */
  push?: PushServices;
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code, message } },
    { status, headers: { "Cache-Control": "no-store", ...headers } },
  );
}

/** The token with the `a2a` scope, counted against the API's rate limit; else why not. */
async function admit(db: DbClient, request: Request): Promise<TokenCaller | Response> {
  try {
    const authorization = request.headers.get("authorization");
    if (!authorization) {
      throw new AppError("unauthorized:token", {
        message: `No API token: send one made at /settings/tokens with the ${A2A_SCOPE} scope as \`Authorization: Bearer <token>\`.`,
      });
    }
    const caller = await authenticateApiToken({ db, authorization });
    ensureScope(caller, A2A_SCOPE);
    const rate = await countApiCall({ db, tokenId: caller.tokenId });
    if (rate.status === "throttled")
      throw Object.assign(new AppError("rate_limited:token"), { retryAfter: rate.retryAfterSeconds });
    return caller;
  } catch (error) {
    reportUnexpected("A2A call refused", error);
    const body = publicErrorOf(error);
    const retry = (error as { retryAfter?: number }).retryAfter;
    // -32600: the request is refused as a whole (A2A's -32001 would read as "task not found").
    return rpcError(body.status, -32600, body.message, {
      ...errorHeaders(body),
      ...(body.status === 401 ? { "WWW-Authenticate": 'Bearer realm="toolnexus"' } : {}),
      ...(retry ? { "Retry-After": String(retry) } : {}),
    });
  }
}

function sseResponse(
  stream: AsyncGenerator<unknown, void, undefined>,
  id: unknown,
  legacy: boolean,
): Response {
  const encoder = new TextEncoder();
  const mapError = legacy
    ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
    : JsonRpcTransportHandler.mapToJSONRPCError;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await stream.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
      } catch (error) {
        reportUnexpected("A2A stream failed", error);
        const reply = { jsonrpc: "2.0", id: id ?? null, error: mapError(error) };
        controller.enqueue(encoder.encode(formatSSEErrorEvent(reply)));
        controller.close();
      }
    },
    async cancel() {
      await stream.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

const METHODS = "SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask";

/** The SDK says only "Invalid method."; the caller is told which method, and which there are. */
function clearer(result: unknown, request: unknown): unknown {
  const reply = result as { error?: { code?: number; message?: string } } | null;
  if (reply?.error?.code !== -32601) return result;
  const method = (request as { method?: unknown } | null)?.method;
  const message = `Unknown method ${JSON.stringify(method)}: this agent takes ${METHODS} (v0.3: message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe).`;
  return { ...reply, error: { ...reply.error, message } };
}

export async function serveA2A(request: Request, services: A2AServices): Promise<Response> {
  if (request.method !== "POST") {
    return rpcError(
      405,
      -32600,
      "/api/a2a takes JSON-RPC as POST; the agent card is at /.well-known/agent-card.json.",
      {
        Allow: "POST",
      },
    );
  }
  const caller = await admit(services.db, request);
  if (caller instanceof Response) return caller;
  // Read as every JSON body of the app is (ADR 0057): within the size limit, strictly parsed.
  const body = await readJsonBody(request);
  if (body.status === "refused") {
    const code = body.refusal.status === 413 ? -32600 : -32700;
    return rpcError(body.refusal.status, code, body.refusal.message);
  }
  const header = request.headers.get(A2A_VERSION_HEADER) ?? undefined;
  const legacy = (header ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION;
  const card = services.card ?? (await buildAgentCard({ db: services.db }));
  const handler = createRunRequestHandler({ ...services, caller, card, signal: request.signal });
  const id = (body.value as { id?: unknown } | null)?.id;
  try {
    const context = new ServerCallContext({
      user: { isAuthenticated: true, userName: caller.actor.email ?? caller.actor.id },
      ...(header ? { requestedVersion: header } : {}),
    });
    validateVersion(context.requestedVersion, card, "JSONRPC");
    const transport = legacy
      ? new LegacyJsonRpcTransportHandler(handler)
      : new JsonRpcTransportHandler(handler);
    const result = await transport.handle(body.value as Record<string, unknown>, context);
    if (result && typeof (result as AsyncGenerator)[Symbol.asyncIterator] === "function") {
      return sseResponse(result as AsyncGenerator<unknown, void, undefined>, id, legacy);
    }
    return Response.json(clearer(result, body.value), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    reportUnexpected("A2A call failed", error);
    const mapped = legacy
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
      : JsonRpcTransportHandler.mapToJSONRPCError(error);
    return Response.json(
      { jsonrpc: "2.0", id: id ?? null, error: mapped },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
}
