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
import { untilDraining } from "@/lib/http/server-draining.mjs";
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
  audience?: Audience;
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

async function sendProgress(extra: ToolExtra, step: number, request: StoredRequest): Promise<void> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return;
  await extra.sendNotification({
    method: "notifications/progress",
    params: { progressToken, progress: step, message: `Waiting for an answer in the inbox (${request.id}).` },
  });
}

export async function askAndWait(
  context: McpCallContext,
  ask: Ask,
  extra: ToolExtra,
): Promise<StoredRequest> {
  const { engine, caller } = context;
  const limit = maxWaitingPerToken();
  if (waitingCount(caller.tokenId) >= limit) {
    throw new AppError("rate_limited:token", {
      message: `This API token already has ${limit} calls waiting for answers; answer or cancel some first.`,
    });
  }
  let made: { request: StoredRequest };
  try {
    made = await engine.createRequest({
      owner: caller.actor,
      apiTokenId: caller.tokenId,
      request: ask.request,
      ...(ask.audience ? { audience: ask.audience } : {}),
      idempotencyKey: idempotencyKeyOf(ask, caller.tokenId),
      createHash: sha256(canonicalJson(ask.sameness)),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid:idempotency_key") {
      throw new AppError("invalid:idempotency_key", {
        message: `${ask.keyField} was already used for a call with different input; use a new ${ask.keyField}.`,
      });
    }
    throw error;
  }
  const ids = { requestId: made.request.id, ownerId: caller.actor.id };
  if (made.request.status !== "open") return made.request;

  const cancel = new AbortController();
  const remove = addWaitingCall({ tokenId: caller.tokenId, callId: extra.requestId, cancel });
  // The client dropping the connection ends the wait but not the request: its repeat finds it.
  const stop = AbortSignal.any([untilDraining(context.httpSignal), extra.signal, cancel.signal]);
  try {
    let current = made.request;
    for (let step = 1; current.status === "open" && !stop.aborted; step += 1) {
      await sendProgress(extra, step, current);
      current = await engine.waitForRequest({ ...ids, timeoutMs: progressEveryMs(), signal: stop });
    }
    if (current.status !== "open") return current;
    if (cancel.signal.aborted) return await cancelled(engine, ids);
    throw new Error("The call ended before the request was answered; call again to go on waiting.");
  } finally {
    remove();
  }
}

/** The client cancelled: the request is withdrawn, unless an answer came first (then that stands). */
async function cancelled(
  engine: Engine,
  ids: { requestId: string; ownerId: string },
): Promise<StoredRequest> {
  try {
    return await engine.cancelRequest(ids);
  } catch {
    return engine.readOwnRequest(ids);
  }
}
