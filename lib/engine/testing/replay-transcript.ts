import type { ThreadEvent } from "@/lib/domain/events";
import { isSuperseded, supersededRanges } from "@/lib/domain/superseded-events";
import type { Message } from "@/lib/toolnexus/types";

/** A message reduced to what a viewer of the chat sees of it. */
export type SeenMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: { id: string; name: string }[] }
  | { role: "tool"; toolCallId: string; content: string; isError: boolean };

export function seenOf(message: Message): SeenMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "assistant":
      return {
        role: "assistant",
        content: message.content,
        toolCalls: (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name })),
      };
    case "tool":
      return {
        role: "tool",
        toolCallId: message.toolCallId,
        content: message.content,
        isError: message.isError ?? false,
      };
    default:
      throw new Error(`unexpected message role ${(message as { role: string }).role}`);
  }
}

/**
 * Rebuilds a thread's transcript from its event log the way a viewer reads it: `superseded`
 * markers honoured, a model turn's text closed by its `usage` event and followed by its tool
 * calls, tool results in the order they were logged.
 */
export function replayTranscript(events: readonly ThreadEvent[]): SeenMessage[] {
  const ranges = supersededRanges(events);
  const out: SeenMessage[] = [];
  let text = "";
  let turn: Extract<SeenMessage, { role: "assistant" }> | undefined;
  for (const event of events) {
    if (isSuperseded(event, ranges)) continue;
    switch (event.type) {
      case "user_message":
        out.push({ role: "user", content: event.content });
        text = "";
        turn = undefined;
        break;
      case "text":
        text += event.delta;
        break;
      case "usage":
        turn = { role: "assistant", content: text, toolCalls: [] };
        out.push(turn);
        text = "";
        break;
      case "tool_call":
        if (!turn) throw new Error(`tool_call ${event.toolCallId} before any model turn`);
        turn.toolCalls.push({ id: event.toolCallId, name: event.name });
        break;
      case "tool_result":
        out.push({
          role: "tool",
          toolCallId: event.toolCallId,
          content: event.output,
          isError: event.isError,
        });
        break;
      default:
        break;
    }
  }
  return out;
}
