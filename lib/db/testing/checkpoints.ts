import { createCheckpoint } from "@/lib/toolnexus/checkpoint";
import { verifyWhole } from "@/lib/toolnexus/testing/verify-whole";
import type { Checkpoint, Message, ResumableCheckpoint } from "@/lib/toolnexus/types";

/** A checkpoint of `runId` holding `messages` and nothing parked, as the storage tests store one. */
export function testCheckpointOf(runId: string, messages: Message[]): Checkpoint {
  return createCheckpoint({
    runId,
    model: "test",
    messages,
    slots: [],
    toolCalls: [],
    turns: messages.length,
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
  });
}

/** The transcript text of a checkpoint as storage handed it back, if it came apart. */
export async function transcriptTextOf(loaded: ResumableCheckpoint): Promise<string | undefined> {
  return "loadTranscript" in loaded ? loaded.loadTranscript() : undefined;
}

/** What `client.resume` verifies of a checkpoint in whichever form storage handed it back, whole. */
export const verifyLoaded = (loaded: ResumableCheckpoint): Promise<Checkpoint> => verifyWhole(loaded);
