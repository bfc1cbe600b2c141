import { ToolnexusError } from "../../errors";
import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn, ToolCall, Usage } from "../../types";
import { type RetryOptions, retrySettings, withRetries } from "../with-retries";

export interface InProcessToolCall {
  /** Generated as `call-<turn>-<i>` when absent (turn = assistant turns so far + 1, i from 1). */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface InProcessReply {
  text?: string;
  toolCalls?: InProcessToolCall[];
  usage?: Partial<Usage>;
  finishReason?: string;
}

/** What a streaming `generate` may yield; parts fold into one turn in the order they arrive. */
export type InProcessPart =
  | { type: "text"; delta: string }
  | ({ type: "tool_call" } & InProcessToolCall)
  | { type: "usage"; usage: Partial<Usage> }
  | { type: "finish"; finishReason: string };

export type InProcessGenerate = (
  input: ModelInput,
) => InProcessReply | Promise<InProcessReply | AsyncIterable<InProcessPart>> | AsyncIterable<InProcessPart>;

export interface InProcessDriverOptions extends RetryOptions {
  model: string;
  generate: InProcessGenerate;
}

/**
 * A model that is a plain function: offline demos, tests and local heuristics drive the same
 * loop as a hosted model. Ids are derived from the transcript, not from a counter, so a run
 * resumed in another process keeps producing the same ids.
 */
export function createInProcessDriver(options: InProcessDriverOptions): ModelDriver {
  if (typeof options?.model !== "string" || typeof options.generate !== "function") {
    throw new ToolnexusError(
      "config:invalid",
      "createInProcessDriver needs a model name and a generate function",
    );
  }
  const { model, generate } = options;
  const settings = retrySettings(options);

  async function* stream(input: ModelInput): AsyncGenerator<ModelStreamPart> {
    throwIfAborted(input.signal);
    const reply = await generate(input);
    const turnNumber = nextTurnNumber(input);
    if (!isAsyncIterable(reply)) {
      const turn = toModelTurn(reply, turnNumber);
      if (turn.text !== "") yield { type: "text", delta: turn.text };
      yield { type: "turn", turn };
      return;
    }
    const folded: Required<Omit<InProcessReply, "finishReason">> & { finishReason?: string } = {
      text: "",
      toolCalls: [],
      usage: {},
    };
    for await (const part of reply) {
      throwIfAborted(input.signal);
      switch (part?.type) {
        case "text":
          if (typeof part.delta !== "string") throw malformed("a text part without a string delta");
          folded.text += part.delta;
          if (part.delta !== "") yield { type: "text", delta: part.delta };
          break;
        case "tool_call": {
          const { type: _type, ...call } = part;
          folded.toolCalls.push(call);
          break;
        }
        case "usage":
          folded.usage = { ...folded.usage, ...part.usage };
          break;
        case "finish":
          folded.finishReason = part.finishReason;
          break;
        default:
          throw malformed(`an unknown stream part ${JSON.stringify(part)}`);
      }
    }
    yield { type: "turn", turn: toModelTurn(folded, turnNumber) };
  }

  const driver: ModelDriver = {
    model,
    async generate(input: ModelInput): Promise<ModelTurn> {
      let last: ModelTurn | undefined;
      for await (const part of stream(input)) if (part.type === "turn") last = part.turn;
      // stream() always ends with a turn part; this only satisfies the type checker.
      if (!last) throw malformed("no turn");
      return last;
    },
    stream,
  };
  // A generate function that calls a service can fail the way a provider does; it is retried alike.
  return withRetries(driver, settings);
}

function toModelTurn(reply: InProcessReply, turnNumber: number): ModelTurn {
  if (typeof reply !== "object" || reply === null) throw malformed(`a reply that is not an object`);
  if (reply.text !== undefined && typeof reply.text !== "string") throw malformed("a non-string text");
  if (reply.toolCalls !== undefined && !Array.isArray(reply.toolCalls))
    throw malformed("non-array toolCalls");
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => toToolCall(call, turnNumber, index + 1));
  const turn: ModelTurn = { text: reply.text ?? "", toolCalls, usage: toUsage(reply.usage) };
  if (reply.finishReason !== undefined) turn.finishReason = reply.finishReason;
  else turn.finishReason = toolCalls.length > 0 ? "tool-calls" : "stop";
  return turn;
}

function toToolCall(call: InProcessToolCall, turnNumber: number, position: number): ToolCall {
  if (typeof call?.name !== "string" || call.name === "") throw malformed("a tool call without a name");
  const id = typeof call.id === "string" && call.id !== "" ? call.id : `call-${turnNumber}-${position}`;
  const args = call.args;
  if (args === undefined) return { id, name: call.name, args: {} };
  if (typeof args === "object" && args !== null && !Array.isArray(args)) return { id, name: call.name, args };
  // Same treatment as a hosted model sending non-object JSON: the loop feeds it back as a tool error.
  return { id, name: call.name, args: {}, invalidArgs: JSON.stringify(args) ?? String(args) };
}

function toUsage(usage: Partial<Usage> | undefined): Usage {
  const promptTokens = count(usage?.promptTokens);
  const completionTokens = count(usage?.completionTokens);
  const totalTokens =
    usage?.totalTokens === undefined ? promptTokens + completionTokens : count(usage.totalTokens);
  return { promptTokens, completionTokens, totalTokens };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function nextTurnNumber(input: ModelInput): number {
  let assistantTurns = 0;
  for (const message of input.messages) if (message.role === "assistant") assistantTurns++;
  return assistantTurns + 1;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<InProcessPart> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted)
    throw new ToolnexusError("aborted", "The model call was aborted", { cause: signal.reason });
}

function malformed(what: string): ToolnexusError {
  return new ToolnexusError("provider:malformed_response", `The in-process model returned ${what}`);
}
