import type { StubRequest } from "./stub-reply";

type Json = Record<string, any>;

function blocks(content: unknown): Json[] {
  return Array.isArray(content) ? (content as Json[]) : [];
}

/** The tool results a provider request carries, as `[toolCallId, content]`, in order. */
export function wireToolResults(request: StubRequest): Array<[string, string]> {
  const messages = (request.body.messages ?? []) as Json[];
  if (request.style === "openai") {
    return messages.filter((m) => m.role === "tool").map((m) => [String(m.tool_call_id), String(m.content)]);
  }
  return messages
    .flatMap((m) => blocks(m.content))
    .filter((b) => b.type === "tool_result")
    .map((b) => [
      String(b.tool_use_id),
      typeof b.content === "string"
        ? b.content
        : blocks(b.content)
            .map((c) => c.text ?? "")
            .join(""),
    ]);
}

export function wireUserTexts(request: StubRequest): string[] {
  const messages = (request.body.messages ?? []) as Json[];
  return messages
    .filter((m) => m.role === "user")
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : blocks(m.content)
            .filter((b) => b.type === "text")
            .map((b) => b.text),
    );
}

/**
 * Why a provider would reject this request's transcript, or undefined: each tool call must be
 * answered by exactly the matching tool results right after it (OpenAI: `tool` messages;
 * Anthropic: `tool_result` blocks in the next user message).
 */
export function wireUnbalancedReason(request: StubRequest): string | undefined {
  const messages = (request.body.messages ?? []) as Json[];
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    if (request.style === "openai") {
      const ids = ((message.tool_calls ?? []) as Json[]).map((c) => String(c.id));
      const answered = messages
        .slice(i + 1, i + 1 + ids.length)
        .map((m) => (m.role === "tool" ? m.tool_call_id : "-"));
      if (answered.join(",") !== ids.join(",")) return `calls [${ids}] answered by [${answered}]`;
    } else {
      const ids = blocks(message.content)
        .filter((b) => b.type === "tool_use")
        .map((b) => String(b.id));
      if (ids.length === 0) continue;
      const next = messages[i + 1];
      const answered =
        next?.role === "user"
          ? blocks(next.content)
              .filter((b) => b.type === "tool_result")
              .map((b) => String(b.tool_use_id))
          : [];
      if (answered.join(",") !== ids.join(",")) return `tool_use [${ids}] answered by [${answered}]`;
    }
  }
  return undefined;
}
