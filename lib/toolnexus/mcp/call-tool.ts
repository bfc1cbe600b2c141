import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { pendingOf } from "../pending";
import type { Context, ToolResult } from "../types";
import { describeFailure } from "./describe-failure";
import {
  type Answered,
  answeredOf,
  askKey,
  askOfRequest,
  elicitationPending,
  metaOf,
  replyOf,
} from "./elicitation";
import type { LiveCall } from "./live-call";
import type { ParkedCalls } from "./parked-calls";
import { callFailure, toToolResult, urlElicitationOf } from "./results";
import type { McpServerConnection } from "./server";

export interface CallTarget {
  server: McpServerConnection;
  /** The tool's name on its server (not the prefixed toolnexus name). */
  tool: string;
  parked: ParkedCalls;
}

function cancelled(): ToolResult {
  return { output: "The tool call was cancelled", isError: true };
}

function declined(message: string): ToolResult {
  return { output: `declined: ${message}`, isError: true };
}

/**
 * Executes one MCP tool call for the loop. A first call runs the tool; a retry carrying an
 * answer to one of this tool's elicitations either feeds it to the call still open in this
 * process, or (after a restart, or once the open call is gone) calls the tool again and answers
 * its repeated questions from the answers carried on the request. ADR 0017 has the design.
 */
export async function callMcpTool(
  target: CallTarget,
  args: Record<string, unknown>,
  ctx: Context = {},
): Promise<ToolResult> {
  const { answer, request } = ctx;
  const meta = metaOf(request, target.server.name, target.tool);
  // An answer to someone else's request (an approval in front of this tool) never reaches the
  // server as an elicitation reply; a declined one means the call does not run at all.
  if (answer && !meta && !answer.ok) return declined(request?.prompt ?? "the call was not approved");
  if (!answer || !meta || !request) return startAndDrive(target, args, ctx, []);

  const ask = askOfRequest(request, meta);
  const { reply, problem } = replyOf(ask, answer);
  const parked = target.parked.take(request.id);
  if (problem) {
    // Refused: the same question goes out again, the open call (if any) keeps waiting.
    const again = elicitationPending(
      ask,
      { server: target.server.name, tool: target.tool, earlier: meta.earlier, refused: problem },
      { continues: answer.id },
    );
    if (parked) target.parked.park(pendingId(again), parked);
    return again;
  }
  const history = [...meta.earlier, answeredOf(ask, reply)];
  if (parked) {
    let release: () => void;
    try {
      release = await target.server.acquire(ctx.signal);
    } catch {
      target.parked.drop(request.id, "The tool call was cancelled");
      return cancelled();
    }
    target.server.resumeActive(parked.call);
    parked.respond(reply);
    return drive(target, args, ctx, parked.call, release, [], history);
  }
  if (ask.mode === "url" && ask.path === "error" && reply.action !== "accept") return declined(ask.message);
  return startAndDrive(target, args, ctx, history);
}

/**
 * A call (or its connection) refused until the user signs in: the host's `authorization`
 * request when it supplied one. The server's own JSON-RPC error (an McpError) is the tool's
 * answer and stays its words. Any other failure came from the transport or the sign-in, and
 * its text is remote (an HTTP error page, an OAuth server's description): the result says
 * the host's words for it or the library's short description, and the text goes to the
 * host's `onFailure` alone.
 */
async function failure(target: CallTarget, error: unknown, ctx: Context): Promise<ToolResult> {
  const { name } = target.server;
  const authorization =
    target.server.config.transport === "http" ? target.server.config.authorization : undefined;
  if (authorization && error instanceof UnauthorizedError) return authorization.pending(ctx);
  if (error instanceof McpError) return callFailure(error, name, target.server.timeoutMs);
  if (authorization?.failed) return authorization.failed(error, ctx);
  target.server.report("call", error);
  return {
    output: `MCP server "${name}": ${describeFailure(error)}`,
    isError: true,
    metadata: { server: name },
  };
}

function pendingId(result: ToolResult): string {
  return pendingOf(result)?.id ?? "";
}

async function startAndDrive(
  target: CallTarget,
  args: Record<string, unknown>,
  ctx: Context,
  replay: Answered[],
): Promise<ToolResult> {
  let release: () => void;
  try {
    release = await target.server.acquire(ctx.signal);
  } catch {
    return cancelled();
  }
  let call: LiveCall;
  try {
    call = await target.server.start(target.tool, args);
  } catch (error) {
    release();
    return failure(target, error, ctx);
  }
  return drive(target, args, ctx, call, release, replay, replay);
}

/** Follows a call until it has a result or a question nobody has answered yet. */
async function drive(
  target: CallTarget,
  args: Record<string, unknown>,
  ctx: Context,
  first: LiveCall,
  release: () => void,
  replay: Answered[],
  history: Answered[],
): Promise<ToolResult> {
  const { server, tool } = target;
  const used = new Set<number>();
  const match = (candidate: Parameters<typeof askKey>[0]) => {
    const key = askKey(candidate);
    const index = replay.findIndex((entry, i) => !used.has(i) && askKey(entry) === key);
    if (index >= 0) used.add(index);
    return index >= 0 ? replay[index]! : undefined;
  };
  let call = first;
  const onAbort = () => call.cancel(new Error("The tool call was cancelled"));
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  if (ctx.signal?.aborted) onAbort();
  const source = { server: server.name, tool };
  const continues = ctx.answer ? { continues: ctx.answer.id } : {};
  try {
    for (;;) {
      const event = await call.next();
      if (event.type === "done") return toToolResult(event.result, source);
      if (event.type === "elicit") {
        const known = match(event.ask);
        if (known) {
          event.respond(known.reply);
          continue;
        }
        const result = elicitationPending(event.ask, { ...source, earlier: history }, continues);
        target.parked.park(pendingId(result), {
          call,
          ask: event.ask,
          respond: event.respond,
          fail: event.fail,
        });
        return result;
      }
      if (ctx.signal?.aborted) return cancelled();
      const urlAsk = urlElicitationOf(event.error);
      if (!urlAsk) return await failure(target, event.error, ctx);
      // The error path: the server wants the user at a URL first, then the same call again.
      const known = match(urlAsk);
      if (!known) return elicitationPending(urlAsk, { ...source, earlier: history }, continues);
      if (known.reply.action !== "accept") return declined(urlAsk.message);
      try {
        call = await server.start(tool, args);
      } catch (error) {
        return await failure(target, error, ctx);
      }
    }
  } finally {
    ctx.signal?.removeEventListener("abort", onAbort);
    release();
  }
}
