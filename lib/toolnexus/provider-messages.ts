import { toAnthropicMessages } from "./drivers/http/wire/anthropic";
import { toOpenAiMessages } from "./drivers/http/wire/openai";
import type { Message, MessageFormat, ProviderMessage, RunResult } from "./types";

/**
 * The transcript as the provider's own messages, as the reference port keeps `RunResult.messages`:
 * OpenAI chat messages (the system prompt first, `tool_call_id` on tool results) or Anthropic's
 * (`tool_use` / `tool_result` blocks, the system prompt kept apart). Made by the same converters
 * that write the request bodies, so what a caller reads is what the model was sent.
 */
export function toProviderMessages(
  transcript: Message[],
  format: MessageFormat,
  system?: string,
): ProviderMessage[] {
  const input = system === undefined ? { messages: transcript } : { system, messages: transcript };
  return format === "anthropic" ? toAnthropicMessages(input).messages : toOpenAiMessages(input);
}

/**
 * Gives `result` its `messages`, converted from `transcript` only when first read: the loop and
 * the hosts that store runs read the transcript, and a run should not pay for a copy nobody reads.
 */
export function withProviderMessages(
  result: Omit<RunResult, "messages">,
  format: MessageFormat,
  system?: string,
): RunResult {
  let converted: ProviderMessage[] | undefined;
  Object.defineProperty(result, "messages", {
    enumerable: true,
    configurable: true,
    get: () => {
      converted ??= toProviderMessages(result.transcript, format, system);
      return converted;
    },
    set: (value: ProviderMessage[]) => {
      converted = value;
    },
  });
  return result as RunResult;
}
