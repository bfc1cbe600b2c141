import "server-only";
import { createHash } from "node:crypto";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson } from "@/app/api/v1/_lib/request-calls";
import type { TokenCaller } from "@/lib/auth/api-token-auth";
import type { StoredRequest } from "@/lib/db/requests";
import type { Engine, NewStandaloneRequest } from "@/lib/engine/engine-types";
import { AppError } from "@/lib/errors";
import type { Request as InboxRequest } from "@/lib/toolnexus/types";
import { REREAD_EVERY_MS } from "./mcp-limits";
import type { InstanceWaits, WaitingCall } from "./waiting-calls";

// One tool call's life: make the inbox request (or find the one an earlier try of the same call
// made), wait for it to leave "open" while telling the client so, and cancel it if the client
// cancels. Requests are made and answered as the HTTP API's are (ADR 0034): this is another door.

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpCallContext {
  engine: Engine;
  caller: TokenCaller;
  /** The HTTP request the call came in; it ends when the client drops the connection. */
  httpSignal: AbortSignal;
  /** The calls waiting on this instance, and their places in the token's limit. */
  waits: InstanceWaits;
}

export interface Ask {
  tool: string;
  request: Omit<InboxRequest, "id">;
  /** Who must answer; a group's members vote as on an API request addressed to them (ADR 0076). */
  audience?: NewStandaloneRequest["audience"];
  /** What names this call across retries: the client's id for it, else its input. */
  callKey: string | undefined;
  /** Everything that makes two tries the same call; a call key reused with other input is refused. */
  sameness: unknown;
  /** The tool's field that carried the call key, named when it is reused. */
  keyField: string;
  /** Set when the request the call key found no longer stands and the person is asked anew. */
  askedAgain?: string;
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
  const again = ask.askedAgain ? `:asked-again:${ask.askedAgain}` : "";
  return `mcp:${tokenId}:${ask.tool}:${sha256(named + again)}`;
}

/**
 * Takes one of the token's waiting places, makes the request, then waits for its answer. Not one
 * async function: while a call waits it holds only the request's id, not the request, its schema
 * or the tool's arguments (ADR 0064).
 */
export function askAndWait(context: McpCallContext, ask: Ask, extra: ToolExtra): Promise<StoredRequest> {
  return context.waits
    .begin(context.caller.tokenId, extra.requestId)
    .then((call) => askHolding(context, ask, extra, call));
}

function askHolding(context: McpCallContext, ask: Ask, extra: ToolExtra, call: WaitingCall) {
  return makeRequest(context, ask)
    .then((made) =>
      made.status === "open" ? waitForAnswer(context, made.id, made.request.expiresAt, extra, call) : made,
    )
    .finally(() => context.waits.end(call));
}

async function makeRequest(context: McpCallContext, ask: Ask): Promise<StoredRequest> {
  const { engine, caller } = context;
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
  expiresAt: string | undefined,
  extra: ToolExtra,
  call: WaitingCall,
): Promise<StoredRequest> {
  const { engine, caller } = context;
  const ids = { requestId, ownerId: caller.actor.id };
  // The client dropping the connection (or the SDK ending the call) ends the wait but not the
  // request: the client's repeat finds it. The call is the listener, so nothing else is kept;
  // the server draining ends it through its instance's one listener.
  const ends = [context.httpSignal, extra.signal];
  for (const signal of ends) signal.addEventListener("abort", call);
  if (ends.some((signal) => signal.aborted)) call.handleEvent();
  // Progress goes out from the instance's one ticker; this loop only waits on the bus, and
  // re-reads the request now and then (and as it expires) in case a notice was missed.
  call.waitingOn = { extra, requestId };
  await call.sendProgress();
  try {
    while (!call.stop.signal.aborted) {
      const current = await engine.waitForRequest({
        ...ids,
        timeoutMs: rereadInMs(expiresAt),
        signal: call.stop.signal,
      });
      if (current.status !== "open") return current;
    }
    if (call.cancelled) return await cancelledRequest(engine, ids);
    throw new Error("The call ended before the request was answered; call again to go on waiting.");
  } finally {
    call.waitingOn = undefined;
    for (const signal of ends) signal.removeEventListener("abort", call);
  }
}

/** Until the request expires (then reading it expires it), at most `REREAD_EVERY_MS`. */
function rereadInMs(expiresAt: string | undefined): number {
  const untilExpiry = expiresAt ? Date.parse(expiresAt) - Date.now() + 100 : REREAD_EVERY_MS;
  return Math.max(100, Math.min(REREAD_EVERY_MS, untilExpiry));
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
