import { callModel } from "./call-model";
import { executeTurn } from "./execute-turn";
import { withProviderMessages } from "./provider-messages";
import {
  addUsage,
  type RunContext,
  reachSafePoint,
  reportMetric,
  snapshot,
  throwIfAborted,
  transcriptSettled,
} from "./run-state";
import { haltedView, queuedSlots, suspendedRequests, toolCallRecord, toolMessage } from "./tool-slots";
import type { Answer, Message, Metric, RunResult } from "./types";

export const DEFAULT_MAX_TURNS = 20;

function baseResult(
  run: RunContext,
  status: RunResult["status"],
  text: string,
  transcript: Message[] = run.state.messages,
): RunResult {
  const { state, options } = run;
  const result = {
    status,
    text,
    transcript,
    toolCalls: state.toolCalls,
    toolCallCount: state.toolCalls.length,
    turns: state.turns,
    usage: state.usage,
    model: run.driver.model,
  };
  return withProviderMessages(result, options.messageFormat ?? "openai", options.systemPrompt);
}

function lastAssistantText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role === "assistant") return message.content;
  }
  return "";
}

async function halt(run: RunContext): Promise<RunResult> {
  const suspended = suspendedRequests(run.state.slots);
  const view = haltedView(run.state.slots);
  const checkpoint = snapshot(run);
  const at = { events: run.emitted };
  await run.persisted;
  if (run.onCheckpoint) await run.onCheckpoint(checkpoint, at);
  const transcript = [...run.state.messages, ...view.messages];
  const result = baseResult(run, "pending", suspended[0]!.prompt, transcript);
  result.toolCalls = [...run.state.toolCalls, ...view.records];
  result.toolCallCount = result.toolCalls.length;
  result.pending = suspended[0]!;
  result.suspended = suspended;
  result.checkpoint = checkpoint;
  return result;
}

/** Every slot has its result: the tool messages go in, in tool-call order, and the turn closes. */
function closeTurn(run: RunContext): void {
  const { state } = run;
  for (const slot of state.slots) {
    if (slot.state.status !== "done") continue;
    state.messages.push(toolMessage(slot.call, slot.state.result));
    state.toolCalls.push(toolCallRecord(slot.call, slot.state.result));
  }
  state.slots = [];
}

/** The closing record of a run (or a resume): what it cost, and how it failed if it did. */
function runMetric(run: RunContext, error?: unknown): Metric {
  const { state } = run;
  const metric: Metric = {
    event: "run",
    model: run.driver.model,
    turns: state.turns,
    toolCalls: state.toolCalls.length,
    totalTokens: state.usage.totalTokens,
    ms: performance.now() - run.started,
  };
  if (error !== undefined) metric.error = error instanceof Error ? error.message : String(error);
  return metric;
}

/**
 * The agent loop from wherever `run.state` stands: finish the open turn (using `answers` for
 * its suspensions), then alternate model calls and tool turns until the model stops calling
 * tools, a suspension halts the run, or `maxTurns` is reached.
 */
export async function runLoop(
  run: RunContext,
  answers: ReadonlyMap<string, Answer> = new Map(),
): Promise<RunResult> {
  try {
    const result = await loop(run, answers);
    reportMetric(run, runMetric(run));
    return result;
  } catch (error) {
    reportMetric(run, runMetric(run, error));
    throw error;
  } finally {
    // A tool still running after an abort or a failure must not persist progress for a run
    // its host already considers over.
    run.ended = true;
  }
}

async function loop(run: RunContext, answers: ReadonlyMap<string, Answer>): Promise<RunResult> {
  const { state } = run;
  const maxTurns = run.options.maxTurns ?? DEFAULT_MAX_TURNS;
  let pendingAnswers = answers;
  for (;;) {
    throwIfAborted(run.signal);
    if (state.slots.length > 0) {
      await executeTurn(run, pendingAnswers);
      // A resumed run's answered calls ran while its transcript was read; nothing below goes
      // on without it.
      await transcriptSettled(run);
      pendingAnswers = new Map();
      if (state.slots.some((slot) => slot.state.status === "suspended")) return halt(run);
      closeTurn(run);
      continue;
    }
    if (state.turns >= maxTurns) {
      const result = baseResult(run, "incomplete", lastAssistantText(state.messages));
      result.limit = "maxTurns";
      return result;
    }
    const turn = await callModel(run);
    state.turns += 1;
    state.usage = addUsage(state.usage, turn.usage);
    run.emit({ type: "usage", usage: turn.usage });
    const assistant: Message = { role: "assistant", content: turn.text };
    if (turn.toolCalls.length > 0) assistant.toolCalls = turn.toolCalls;
    state.messages.push(assistant);
    if (turn.toolCalls.length === 0) return baseResult(run, "done", turn.text);
    state.slots = queuedSlots(turn.toolCalls);
    for (const call of turn.toolCalls)
      run.emit({ type: "tool_call", id: call.id, name: call.name, args: call.args });
    await reachSafePoint(run);
  }
}
