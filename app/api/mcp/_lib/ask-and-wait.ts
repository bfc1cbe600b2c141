import "server-only";
import { createHash } from "node:crypto";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson } from "@/app/api/v1/_lib/request-calls";
import type { TokenCaller } from "@/lib/auth/api-token-auth";
import type { StoredRequest } from "@/lib/db/requests";
import type { Audience } from "@/lib/domain/events";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError } from "@/lib/errors";
import { drainingSignal } from "@/lib/http/server-draining.mjs";
import type { Request as InboxRequest } from "@/lib/toolnexus/types";
import { maxWaitingPerToken, progressEveryMs } from "./mcp-limits";
import { addWaitingCall, waitingCount } from "./waiting-calls";

// One tool call's life: make the inbox request (or find the one an earlier try of the same call
// made), wait for it to leave "open" while telling the client so, and cancel it if the client
// cancels. Requests are made and answered as the HTTP API's are (ADR 0034): this is another door.

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpCallContext {
  engine: Engine;
  caller: TokenCaller;
  /** The HTTP request the call came in; it ends when the client drops the connection. */
  httpSignal: AbortSignal;
}

export interface Ask {
  tool: string;
  request: Omit<InboxRequest, "id">;
  audience?: Exclude<Audience, "group">;
  /** What names this call across retries: the client's id for it, else its input. */
  callKey: string | undefined;
  /** Everything that makes two tries the same call; a call key reused with other input is refused. */
  sameness: unknown;
  /** The tool's field that carried the call key, named when it is reused. */
  keyField: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The request's Idempotency-Key. Keyed by token, so two agents never share one, and by the
 * hour when the client gave no id: a repeat after a dropped connection comes within minutes,
 * while the same question asked again tomorrow is a new one.
 */
function idempotencyKeyOf(ask: Ask, tokenId: string): string {
  const named =
    ask.callKey ?? `input:${sha256(canonicalJson(ask.sameness))}:${Math.floor(Date.now() / 3_600_000)}`;
  return `mcp:${tokenId}:${ask.tool}:${sha256(named)}`;
}

async function sendProgress(extra: ToolExtra, step: number, requestId: string): Promise<void> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return;
  await extra.sendNotification({
    method: "notifications/progress",
    params: { progressToken, progress: step, message: `Waiting for an answer in the inbox (${requestId}).` },
  });
}

/**
 * Makes the request, then waits for its answer. Not one async function: while a call waits it
 * holds only the request's id, not the request, its schema or the tool's arguments (ADR 0064).
 */
export function askAndWait(context: McpCallContext, ask: Ask, extra: ToolExtra): Promise<StoredRequest> {
  return makeRequest(context, ask).then((made) =>
    made.status === "open" ? waitForAnswer(context, made.id, extra) : made,
  );
}

async function makeRequest(context: McpCallContext, ask: Ask): Promise<StoredRequest> {
  const { engine, caller } = context;
  const limit = maxWaitingPerToken();
  if (waitingCount(caller.tokenId) >= limit) {
    throw new AppError("rate_limited:token", {
      message: `This API token already has ${limit} calls waiting for answers; answer or cancel some first.`,
    });
  }
  try {
    const made = await engine.createRequest({
      owner: caller.actor,
      apiTokenId: caller.tokenId,
      request: ask.request,
      ...(ask.audience ? { audience: ask.audience } : {}),
      idempotencyKey: idempotencyKeyOf(ask, caller.tokenId),
      createHash: sha256(canonicalJson(ask.sameness)),
    });
    return made.request;
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid:idempotency_key") {
      throw new AppError("invalid:idempotency_key", {
        message: `${ask.keyField} was already used for a call with different input; use a new ${ask.keyField}.`,
      });
    }
    throw error;
  }
}

async function waitForAnswer(
  context: McpCallContext,
  requestId: string,
  extra: ToolExtra,
): Promise<StoredRequest> {
  const { engine, caller } = context;
  const ids = { requestId, ownerId: caller.actor.id };
  // One controller ends the wait, with plain listeners rather than `AbortSignal.any` (which on
  // Node 20 keeps what it makes referenced for good). The client dropping the connection or the
  // server draining ends the wait but not the request: the client's repeat finds it.
  const stop = new AbortController();
  const end = () => stop.abort();
  const ends = [context.httpSignal, extra.signal, drainingSignal()];
  for (const signal of ends) signal.addEventListener("abort", end);
  if (ends.some((signal) => signal.aborted)) end();
  let cancelled = false;
  const remove = addWaitingCall({
    tokenId: caller.tokenId,
    callId: extra.requestId,
    cancel: () => {
      cancelled = true;
      end();
    },
  });
  try {
    for (let step = 1; !stop.signal.aborted; step += 1) {
      await sendProgress(extra, step, requestId);
      const current = await engine.waitForRequest({
        ...ids,
        timeoutMs: progressEveryMs(),
        signal: stop.signal,
      });
      if (current.status !== "open") return current;
    }
    if (cancelled) return await cancelledRequest(engine, ids);
    throw new Error("The call ended before the request was answered; call again to go on waiting.");
  } finally {
    remove();
    for (const signal of ends) signal.removeEventListener("abort", end);
  }
}

/** The client cancelled: the request is withdrawn, unless an answer came first (then that stands). */
async function cancelledRequest(
  engine: Engine,
  ids: { requestId: string; ownerId: string },
): Promise<StoredRequest> {
  try {
    return await engine.cancelRequest(ids);
  } catch {
    return engine.readOwnRequest(ids);
  }
}
