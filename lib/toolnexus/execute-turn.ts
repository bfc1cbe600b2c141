import { errorResult } from "./define-tool";
import { pendingOf } from "./pending";
import { type RunContext, reachSafePoint, reportMetric, untilAborted } from "./run-state";
import { toolResultEvent } from "./tool-slots";
import type { Answer, Context, Request, ToolCall, ToolResult, ToolSlot } from "./types";

export function defaultDecline(request: Request): string {
  return `declined/expired: ${request.prompt}`;
}

/** One execution of one call: hooks, the tool itself, metrics. Never throws for a tool's failure. */
async function invoke(
  run: RunContext,
  call: ToolCall,
  attempt: number,
  answer?: Answer,
): Promise<ToolResult> {
  if (call.invalidArgs !== undefined) {
    return {
      output: `Invalid arguments for ${call.name}: not a JSON object: ${call.invalidArgs}`,
      isError: true,
    };
  }
  if (!run.toolkit?.has(call.name)) return { output: `Unknown tool: ${call.name}`, isError: true };

  const ctx: Context = { idempotencyKey: `${run.state.runId}:${call.id}` };
  if (answer) ctx.answer = answer;
  if (run.signal) ctx.signal = run.signal;
  const { hooks } = run.options;
  const started = performance.now();

  let result = await hooks?.beforeTool?.({ call, ctx });
  if (!result) {
    try {
      result = await run.toolkit.execute(call.name, call.args, ctx);
    } catch (error) {
      result = errorResult(error);
    }
  }
  const suspended = pendingOf(result) !== undefined;
  reportMetric(run, {
    type: "tool",
    name: call.name,
    durationMs: performance.now() - started,
    isError: suspended ? false : result.isError,
    pending: suspended,
    attempt,
  });
  if (suspended || !hooks?.afterTool) return result;
  return (await hooks.afterTool({ call, result })) ?? result;
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
  request: Request,
  answer: Answer | undefined,
  cursor: { emitted: number },
) {
  if (!answer?.ok) {
    const output = (run.options.formatDecline ?? defaultDecline)(request, answer);
    return finish(run, slot, { output, isError: true }, cursor);
  }
  const retried = await invoke(run, slot.call, 2, answer);
  // One question per call: a tool that suspends again after its answer is not asked twice.
  const result = pendingOf(retried) ? { output: `unresolved: ${request.prompt}`, isError: true } : retried;
  return finish(run, slot, result, cursor);
}

async function askHost(run: RunContext, request: Request): Promise<Answer> {
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
    if (answer) return resolve(run, slot, state.request, answer, cursor);
    if (run.options.waitFor)
      return resolve(run, slot, state.request, await askHost(run, state.request), cursor);
    return;
  }
  const result = await invoke(run, slot.call, 1);
  const request = pendingOf(result);
  if (!request) return finish(run, slot, result, cursor);
  slot.state = { status: "suspended", request };
  run.emit({ type: "pending", request });
  await reachSafePoint(run);
  if (run.options.waitFor) return resolve(run, slot, request, await askHost(run, request), cursor);
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
