import { readUIMessageStream } from "ai";
import type { ChatMessage } from "@/lib/domain/chat-message";
import type { ThreadEvent } from "@/lib/domain/events";
import { supersededRanges } from "@/lib/domain/superseded-events";
import { type ChatChunk, RunChunkTranslator } from "./run-chunk-translator";

export function userMessageId(runId: string): string {
  return `user-${runId}`;
}

/**
 * Rebuilds a thread's messages from its event log with the same translator the live stream
 * uses, folded by the AI SDK's own stream reader: a page rendered from history and a page fed
 * live end up with identical messages.
 */
export async function buildThreadMessages(events: ThreadEvent[]): Promise<ChatMessage[]> {
  const messages: ChatMessage[] = [];
  const runs = new Map<string, { translator: RunChunkTranslator; chunks: ChatChunk[]; index: number }>();
  // What a takeover redid is known from the whole log, so each run is read without it.
  const superseded = supersededRanges(events);

  for (const event of events) {
    if (event.runId === null) continue;
    if (event.type === "user_message") {
      messages.push({
        id: userMessageId(event.runId),
        role: "user",
        parts: [{ type: "text", text: event.content }],
      });
    }
    let run = runs.get(event.runId);
    if (!run) {
      run = {
        translator: new RunChunkTranslator(event.runId, superseded),
        chunks: [],
        index: messages.length,
      };
      runs.set(event.runId, run);
      // Reserve the assistant message's slot right after its user message.
      messages.push(undefined as unknown as ChatMessage);
    }
    run.chunks.push(...run.translator.push(event));
  }

  for (const run of runs.values()) {
    messages[run.index] = await foldChunks(run.chunks);
  }
  return messages.filter((message) => message.parts.length > 0);
}

async function foldChunks(chunks: ChatChunk[]): Promise<ChatMessage> {
  const stream = new ReadableStream<ChatChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: ChatMessage = { id: "", role: "assistant", parts: [] };
  for await (const message of readUIMessageStream<ChatMessage>({ stream })) last = message;
  return last;
}
