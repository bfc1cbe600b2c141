import { createCheckpoint } from "@/lib/toolnexus/checkpoint";
import type { Checkpoint, Message } from "@/lib/toolnexus/types";

/** A checkpoint of `runId` holding `messages` and nothing parked, as the storage tests store one. */
export function testCheckpointOf(runId: string, messages: Message[]): Checkpoint {
  return createCheckpoint({
    version: 1,
    runId,
    model: "test",
    messages,
    slots: [],
    toolCalls: [],
    turns: messages.length,
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
  });
}
