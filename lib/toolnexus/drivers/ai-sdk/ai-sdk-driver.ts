import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { ToolnexusError } from "../../errors";
import type { ModelDriver, ModelInput, ModelStreamPart, ModelTurn, ToolCall, Usage } from "../../types";
import { type RetryOptions, retrySettings, withRetries } from "../with-retries";
import { fromAiSdkError } from "./from-ai-sdk-error";
import {
  fromAiSdkFinishReason,
  fromAiSdkResult,
  fromAiSdkToolCall,
  fromAiSdkUsage,
  parseToolInput,
} from "./from-ai-sdk-result";
import { toAiSdkCallOptions } from "./to-ai-sdk-call-options";

/**
 * Lets any Vercel AI SDK language model (`LanguageModelV3`, e.g. from `@ai-sdk/openai-compatible`
 * or `@ai-sdk/anthropic`) drive the toolnexus loop. The loop keeps control of tool execution:
 * the model only ever sees function tools and returns the calls it wants made. Failed calls are
 * retried like the HTTP driver's (`retries`, `retryBaseMs`): the AI SDK retries only in its
 * `generateText`/`streamText`, not in the model calls this driver makes.
 */
export function createAiSdkDriver(languageModel: LanguageModelV3, options: RetryOptions = {}): ModelDriver {
  if (
    typeof languageModel !== "object" ||
    languageModel === null ||
    languageModel.specificationVersion !== "v3"
  ) {
    throw new ToolnexusError(
      "config:invalid",
      "languageModel must be an AI SDK language model object implementing specification v3",
    );
  }
  const settings = retrySettings(options);
  const driver: ModelDriver = {
    model: languageModel.modelId,
    async generate(input: ModelInput): Promise<ModelTurn> {
      throwIfAborted(input.signal);
      try {
        return fromAiSdkResult(await languageModel.doGenerate(toAiSdkCallOptions(input)));
      } catch (error) {
        throw fromAiSdkError(error, input.signal);
      }
    },
    stream(input: ModelInput): AsyncIterable<ModelStreamPart> {
      return streamTurn(languageModel, input);
    },
  };
  return withRetries(driver, settings);
}

async function* streamTurn(
  languageModel: LanguageModelV3,
  input: ModelInput,
): AsyncGenerator<ModelStreamPart> {
  throwIfAborted(input.signal);
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>;
  try {
    reader = (await languageModel.doStream(toAiSdkCallOptions(input))).stream.getReader();
  } catch (error) {
    throw fromAiSdkError(error, input.signal);
  }
  const turn = new StreamedTurn();
  let finished = false;
  try {
    while (true) {
      let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        throw fromAiSdkError(error, input.signal);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === "error") throw fromAiSdkError(part.error, input.signal);
      const delta = turn.add(part);
      if (delta) yield { type: "text", delta };
    }
    finished = true;
  } finally {
    // A consumer that stops early must not leave the provider's HTTP response dangling.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  yield { type: "turn", turn: turn.result() };
}

interface PendingCall {
  name: string;
  inputText: string;
  call?: ToolCall;
}

/** Folds stream parts into one turn; tool calls keep the order in which their input started. */
class StreamedTurn {
  private text = "";
  private readonly calls = new Map<string, PendingCall | null>();
  private usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  private finishReason: string | undefined;

  /** Returns the text delta carried by the part, if any. */
  add(part: LanguageModelV3StreamPart): string | undefined {
    switch (part.type) {
      case "text-delta":
        this.text += part.delta;
        return part.delta;
      case "tool-input-start":
        // Provider-executed tools (web search and the like) are not ours to run; null marks them.
        this.calls.set(part.id, part.providerExecuted ? null : { name: part.toolName, inputText: "" });
        return undefined;
      case "tool-input-delta": {
        const pending = this.calls.get(part.id);
        if (pending) pending.inputText += part.delta;
        return undefined;
      }
      case "tool-call": {
        if (part.providerExecuted) this.calls.set(part.toolCallId, null);
        else {
          const pending = this.calls.get(part.toolCallId);
          const call = fromAiSdkToolCall(part);
          if (pending) pending.call = call;
          else this.calls.set(part.toolCallId, { name: part.toolName, inputText: part.input, call });
        }
        return undefined;
      }
      case "finish":
        this.usage = fromAiSdkUsage(part.usage);
        this.finishReason = fromAiSdkFinishReason(part.finishReason);
        return undefined;
      default:
        return undefined;
    }
  }

  result(): ModelTurn {
    const toolCalls: ToolCall[] = [];
    for (const [id, pending] of this.calls) {
      if (!pending) continue;
      // Some providers stop at tool-input-end without a closing tool-call part; the input text is complete by then.
      toolCalls.push(pending.call ?? { id, name: pending.name, ...parseToolInput(pending.inputText) });
    }
    const turn: ModelTurn = { text: this.text, toolCalls, usage: this.usage };
    if (this.finishReason !== undefined) turn.finishReason = this.finishReason;
    return turn;
  }
}

function throwIfAborted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw fromAiSdkError(signal.reason ?? new Error("aborted"), signal);
}
