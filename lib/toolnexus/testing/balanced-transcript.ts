import type { Message } from "../types";

/**
 * Why a transcript would be rejected by a provider, or undefined when it is balanced: every
 * assistant tool call is followed by exactly one tool message with its id, before anything else.
 */
export function unbalancedReason(messages: Message[]): string | undefined {
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i]!;
    if (message.role === "tool") return `tool message ${message.toolCallId} at ${i} answers no open call`;
    if (message.role !== "assistant" || !message.toolCalls?.length) continue;
    const expected = message.toolCalls.map((call) => call.id);
    const answered = messages.slice(i + 1, i + 1 + expected.length);
    const ids = answered.map((m) => (m.role === "tool" ? m.toolCallId : `<${m.role}>`));
    if (ids.length !== expected.length || ids.some((id, k) => id !== expected[k])) {
      return `assistant message ${i} called [${expected.join(", ")}] but was followed by [${ids.join(", ")}]`;
    }
    i += expected.length;
  }
  return undefined;
}
