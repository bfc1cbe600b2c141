import { toAnthropic, toOpenAI } from "./adapters";
import { isToolnexusError, ToolnexusError } from "./errors";
import { toToolSpecs, toTranscript } from "./provider-history";
import { toProviderMessages } from "./provider-messages";
import { abortError, type RunContext, reportMetric, throwIfAborted } from "./run-state";
import type { Metric, ModelInput, ModelTurn } from "./types";

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

function llmMetric(run: RunContext, started: number, usage?: ModelTurn["usage"]): Metric {
  return {
    event: "llm",
    model: run.driver.model,
    status: usage ? "ok" : "error",
    ms: performance.now() - started,
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
  };
}

/** One model round trip, streamed or not, with the LLM hooks and metric around it. */
export async function callModel(run: RunContext): Promise<ModelTurn> {
  throwIfAborted(run.signal);
  const { hooks, systemPrompt } = run.options;
  const turnIndex = run.state.turns;
  const model = run.driver.model;
  let tools = run.tools ?? run.toolkit?.specs() ?? [];
  if (hooks?.beforeLLM) {
    // The hook sees (and may hand back) what the provider is sent, as in the reference port.
    const format = run.options.messageFormat ?? "openai";
    const override = await hooks.beforeLLM({
      messages: toProviderMessages(run.state.messages, format, systemPrompt),
      tools: format === "anthropic" ? toAnthropic(tools) : toOpenAI(tools),
      model,
      turn: turnIndex,
    });
    // A replacement is the run's own from now on, as if the transcript had always read so.
    if (override?.messages)
      run.state.messages = toTranscript(override.messages, systemPrompt, "beforeLLM messages");
    if (override?.tools) run.tools = tools = toToolSpecs(override.tools);
  }
  // The driver gets its own array: a later push by the loop must not change what it was sent.
  const input: ModelInput = { model, messages: run.state.messages.slice(), tools };
  if (systemPrompt !== undefined) input.system = systemPrompt;
  if (run.signal) input.signal = run.signal;

  const started = performance.now();
  let turn: ModelTurn;
  try {
    turn = run.streaming ? await streamTurn(run, input) : await run.driver.generate(input);
  } catch (error) {
    reportMetric(run, llmMetric(run, started));
    if (run.signal?.aborted && !isToolnexusError(error, "aborted")) throw abortError(run.signal);
    throw error;
  }
  reportMetric(run, llmMetric(run, started, turn.usage));
  await hooks?.afterLLM?.({ response: turn, model, turn: turnIndex });
  return turn;
}
