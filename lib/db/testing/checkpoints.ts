import {
  createCheckpoint,
  verifyCheckpoint,
  verifyCheckpointHead,
  verifyCheckpointParts,
  verifyTranscriptText,
} from "@/lib/toolnexus/checkpoint";
import type { Checkpoint, Message, ResumableCheckpoint } from "@/lib/toolnexus/types";

/**
 * A checkpoint of `runId` holding `messages` and nothing parked, as the storage tests store one:
 * version 2 as runs make them, or version 1 as rows stored before it hold them.
 */
export function testCheckpointOf(runId: string, messages: Message[], version: 1 | 2 = 2): Checkpoint {
  return createCheckpoint({
    version,
    runId,
    model: "test",
    messages,
    slots: [],
    toolCalls: [],
    turns: messages.length,
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
  });
}

/** The transcript text of a checkpoint as storage handed it back, read now if it was deferred. */
export async function transcriptTextOf(loaded: ResumableCheckpoint): Promise<string | undefined> {
  if ("loadTranscript" in loaded) return loaded.loadTranscript();
  return "transcript" in loaded ? loaded.transcript : undefined;
}

/** What `client.resume` verifies of a checkpoint in whichever form storage handed it back. */
export async function verifyLoaded(loaded: ResumableCheckpoint): Promise<Checkpoint> {
  if ("loadTranscript" in loaded) {
    const { loadTranscript, ...rest } = loaded;
    const head = verifyCheckpointHead(rest);
    return { ...head, messages: verifyTranscriptText(head, await loadTranscript()) };
  }
  return "transcript" in loaded ? verifyCheckpointParts(loaded) : verifyCheckpoint(loaded);
}
