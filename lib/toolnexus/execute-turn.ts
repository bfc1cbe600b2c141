import { errorResult } from "./define-tool";
import { pendingOf } from "./pending";
import { type RunContext, reachSafePoint, reportMetric, untilAborted } from "./run-state";
import { toolResultEvent } from "./tool-slots";
import type { Answer, Context, Request, ToolResult, ToolSlot } from "./types";

export function defaultDecline(request: Request): string {
  return `declined/expired: ${request.prompt}`;
}

/** How many follow-up questions one call may ask in-process before the loop stops it. */
export const MAX_FOLLOW_UPS = 8;

/** Marks on a suspending ToolResult's metadata that the loop honours (see ADR 0017). */
function marks(result: ToolResult): { continues?: unknown; resumeOnDecline: boolean } {
  const metadata = result.metadata ?? {};
  return { continues: metadata.continues, resumeOnDecline: metadata.resumeOnDecline === true };
}

function suspendedState(request: Request, result: ToolResult): ToolSlot["state"] {
  return marks(result).resumeOnDecline
    ? { status: "suspended", request, resumeOnDecline: true }
    : { status: "suspended", request };
}

/**
 * One execution of one call: hooks, the tool itself, metrics. Never throws for a tool's failure.
 * The retry after an answer skips `beforeTool`: the call already went through it, and a guard
 * that raised the suspension must not raise it again.
 */
async function invoke(
  run: RunContext,
  slot: ToolSlot,
  attempt: number,
  answered?: { answer: Answer; request: Request },
): Promise<ToolResult> {
  const { call } = slot;
  if (call.invalidArgs !== undefined) {
    return {
      output: `Invalid arguments for ${call.name}: not a JSON object: ${call.invalidArgs}`,
      isError: true,
    };
  }
  if (!run.toolkit?.has(call.name)) return { output: `Unknown tool: ${call.name}`, isError: true };

  const ctx: Context = { idempotencyKey: `${run.state.runId}:${call.id}` };
  if (answered) {
    ctx.answer = answered.answer;
    ctx.request = answered.request;
  }
  if (run.signal) ctx.signal = run.signal;
  const { hooks } = run.options;
  const turn = run.state.turns - 1;
  const started = performance.now();

  let result: ToolResult | undefined;
  if (!answered && hooks?.beforeTool) {
    const override = await hooks.beforeTool({
      name: call.name,
      args: call.args,
      id: call.id,
      turn,
      call,
      ctx,
    });
    if (override?.result) result = override.result;
    // The rewritten arguments are the call's from now on: its record, and any retry, use them.
    else if (override?.args) slot.call = { ...call, args: override.args };
  }
  const shortCircuited = result !== undefined;
  if (!result) {
    try {
      const running = run.toolkit.execute(call.name, slot.call.args, ctx);
      // A resumed run reads its transcript while its first call runs (see `pendingTranscript`).
      run.pendingTranscript?.();
      result = await running;
    } catch (error) {
      result = errorResult(error);
    }
  }
  const suspended = pendingOf(result) !== undefined;
  if (!suspended && !shortCircuited && hooks?.afterTool) {
    const override = await hooks.afterTool({
      name: call.name,
      args: slot.call.args,
      result,
      id: call.id,
      turn,
    });
    if (override?.result) result = override.result;
  }
  reportMetric(run, {
    event: "tool",
    tool: call.name,
    source: run.toolkit.get?.(call.name)?.source ?? "custom",
    isError: suspended ? false : result.isError,
    ms: performance.now() - started,
    ...(suspended ? { pending: true as const } : {}),
    attempt,
  });
  return result;
}

/** Emits tool results in tool-call order: each one as soon as every earlier call has one too. */
function flushResults(run: RunContext, cursor: { emitted: number }): void {
  const { slots } = run.state;
  while (cursor.emitted < slots.length) {
    const slot = slots[cursor.emitted]!;
    if (slot.state.status !== "done") return;
    run.emit(toolResultEvent(slot.call, slot.state.result));
    cursor.emitted += 1;
  }
}

async function finish(run: RunContext, slot: ToolSlot, result: ToolResult, cursor: { emitted: number }) {
  slot.state = { status: "done", result };
  flushResults(run, cursor);
  await reachSafePoint(run);
}

async function resolve(
  run: RunContext,
  slot: ToolSlot,
  answer: Answer | undefined,
  cursor: { emitted: number },
  followUps = 0,
): Promise<void> {
  const { state } = slot;
  if (state.status !== "suspended") return;
  const { request } = state;
  // A tool that asked to hear declines itself (an MCP elicitation tells its server) is retried
  // with the negative answer; every other tool gets the host's decline text without running.
  const retry = answer !== undefined && (answer.ok || state.resumeOnDecline === true);
  if (!retry) {
    const output = (run.options.formatDecline ?? defaultDecline)(request, answer);
    return finish(run, slot, { output, isError: true }, cursor);
  }
  const retried = await invoke(run, slot, 2 + followUps, { answer, request });
  const next = pendingOf(retried);
  if (!next) return finish(run, slot, retried, cursor);
  // One question per call, unless the tool says this is the next question of the same call
  // (it names the request just answered); even then the chain is bounded in-process.
  if (marks(retried).continues !== request.id || next.id === request.id || followUps >= MAX_FOLLOW_UPS) {
    return finish(run, slot, { output: `unresolved: ${request.prompt}`, isError: true }, cursor);
  }
  slot.state = suspendedState(next, retried);
  run.emit({ type: "pending", request: next });
  await reachSafePoint(run);
  if (run.options.waitFor) return resolve(run, slot, await askHost(run, next), cursor, followUps + 1);
}

async function askHost(run: RunContext, request: Request): Promise<Answer> {
  // A stream's consumer sees the `pending` event before the host is asked, as with a generator
  // that yields it first.
  if (run.delivered) await untilAborted(run.delivered(run.emitted), run.signal);
  return untilAborted(run.options.waitFor!(request), run.signal);
}

async function settle(
  run: RunContext,
  slot: ToolSlot,
  answer: Answer | undefined,
  cursor: { emitted: number },
) {
  const { state } = slot;
  if (state.status === "done") return;
  if (state.status === "suspended") {
    if (answer) return resolve(run, slot, answer, cursor);
    if (run.options.waitFor) return resolve(run, slot, await askHost(run, state.request), cursor);
    return;
  }
  const result = await invoke(run, slot, 1);
  const request = pendingOf(result);
  if (!request) return finish(run, slot, result, cursor);
  slot.state = suspendedState(request, result);
  run.emit({ type: "pending", request });
  await reachSafePoint(run);
  if (run.options.waitFor) return resolve(run, slot, await askHost(run, request), cursor);
}

/**
 * Brings every slot of the current turn as far as it can go, concurrently: queued calls run,
 * answered suspensions retry (or decline), unanswered ones stay suspended unless `waitFor`
 * can resolve them in-process.
 */
export async function executeTurn(run: RunContext, answers: ReadonlyMap<string, Answer>): Promise<void> {
  const { slots } = run.state;
  const cursor = { emitted: leadingDone(slots) };
  const work = slots.map((slot) =>
    settle(
      run,
      slot,
      slot.state.status === "suspended" ? answers.get(slot.state.request.id) : undefined,
      cursor,
    ),
  );
  await untilAborted(Promise.all(work), run.signal);
}

/** Calls already reported before this execution started (they precede every unfinished call). */
function leadingDone(slots: ToolSlot[]): number {
  const index = slots.findIndex((slot) => slot.state.status !== "done");
  return index === -1 ? slots.length : index;
}
