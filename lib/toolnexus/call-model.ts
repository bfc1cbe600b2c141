import { isToolnexusError, ToolnexusError } from "./errors";
import { abortError, type RunContext, reportMetric, throwIfAborted } from "./run-state";
import type { ModelInput, ModelTurn } from "./types";

async function streamTurn(run: RunContext, input: ModelInput): Promise<ModelTurn> {
  let turn: ModelTurn | undefined;
  for await (const part of run.driver.stream(input)) {
    if (part.type === "text") {
      if (part.delta !== "") run.emit({ type: "text", delta: part.delta });
    } else {
      turn = part.turn;
    }
  }
  if (!turn) throw new ToolnexusError("provider:malformed_response", "The model stream ended without a turn");
  return turn;
}

/** One model round trip, streamed or not, with the LLM hooks and metric around it. */
export async function callModel(run: RunContext): Promise<ModelTurn> {
  throwIfAborted(run.signal);
  const { hooks, systemPrompt } = run.options;
  const turnIndex = run.state.turns;
  // The driver gets its own array: a later push by the loop must not change what it was sent.
  const messages =
    (await hooks?.beforeLLM?.({ messages: run.state.messages.slice(), turn: turnIndex })) ??
    run.state.messages.slice();
  const input: ModelInput = { model: run.driver.model, messages, tools: run.toolkit?.specs() ?? [] };
  if (systemPrompt !== undefined) input.system = systemPrompt;
  if (run.signal) input.signal = run.signal;

  const started = performance.now();
  let turn: ModelTurn;
  try {
    turn = run.streaming ? await streamTurn(run, input) : await run.driver.generate(input);
  } catch (error) {
    reportMetric(run, {
      type: "llm",
      name: run.driver.model,
      durationMs: performance.now() - started,
      isError: true,
      pending: false,
    });
    if (run.signal?.aborted && !isToolnexusError(error, "aborted")) throw abortError(run.signal);
    throw error;
  }
  reportMetric(run, {
    type: "llm",
    name: run.driver.model,
    durationMs: performance.now() - started,
    isError: false,
    pending: false,
    usage: turn.usage,
  });
  await hooks?.afterLLM?.({ turn, turnIndex });
  return turn;
}
