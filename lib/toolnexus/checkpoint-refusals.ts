import { CheckpointShapeIssue, checkTranscriptShape } from "./checkpoint-shape";
import { ToolnexusError } from "./errors";
import type { Message } from "./types";

// How a checkpoint is refused (`checkpoint:invalid` with where and what, or
// `checkpoint:tampered`), and a transcript that comes as text is read.

/** The messages of a transcript handed over as text (see `DeferredCheckpoint`), checked and kept as parsed. */
export function readTranscriptText(text: unknown): Message[] {
  if (typeof text !== "string") throw new CheckpointShapeIssue("transcript", "expected a string");
  let messages: unknown;
  try {
    messages = JSON.parse(`[${text}]`);
  } catch {
    throw new CheckpointShapeIssue("transcript", "not JSON");
  }
  checkTranscriptShape(messages);
  return messages as Message[];
}

/** `read`, with a shape issue turned into the refusal `client.resume` gives for a malformed checkpoint. */
export function refusingMalformed<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof CheckpointShapeIssue)) throw error;
    throw malformed(error.where, error.problem);
  }
}

/** The refusal for a checkpoint that is not one: where (a dotted path) and what. */
export function malformed(where: string, problem: string): ToolnexusError {
  return new ToolnexusError("checkpoint:invalid", `Malformed checkpoint: ${where}: ${problem}`);
}

/** The refusal for a checkpoint whose digest does not match what it holds. */
export function tampered(): ToolnexusError {
  return new ToolnexusError("checkpoint:tampered", "Checkpoint digest does not match its contents");
}
