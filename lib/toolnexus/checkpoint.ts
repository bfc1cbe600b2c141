import {
  canonicalJson,
  canonicalTranscript,
  deepFreeze,
  digestOf,
  fillTranscriptCache,
  finishTranscriptDigest,
  sameDigest,
  syncTranscript,
  type TranscriptCache,
  transcriptHashOf,
} from "./checkpoint-digest";
import { readTranscriptText, refusingMalformed, tampered } from "./checkpoint-refusals";
import { type CheckpointBody, checkTranscriptShape, readCheckpointShape } from "./checkpoint-shape";
import { readVersion1 } from "./checkpoint-upgrade";
import { ToolnexusError } from "./errors";
import type { Checkpoint, DeferredCheckpoint, Message } from "./types";

export { canonicalJson, createTranscriptCache, type TranscriptCache } from "./checkpoint-digest";
export type { CheckpointBody } from "./checkpoint-shape";

/**
 * The halted turn's slots as a JSON round trip yields them, keys in their order: only the
 * digest needs them sorted, and a request's form schema lists its fields in the order they are
 * to be asked. The slots are the halted turn only, so the second serialization costs little.
 */
function slotsInOrder(slots: CheckpointBody["slots"]): CheckpointBody["slots"] {
  return JSON.parse(JSON.stringify(slots)) as CheckpointBody["slots"];
}

/**
 * Freezes a run's state into a detached, JSON-safe value with its digests: the transcript's
 * own, then the digest of the rest with it. With a `cache` (one per run), messages already
 * snapshotted cost no serialization again; the digests are the same either way, computed over
 * the same canonical text. Without one the messages come back as parsed from that text.
 */
export function createCheckpoint(body: CheckpointBody, key?: string, cache?: TranscriptCache): Checkpoint {
  const { runId, model, messages, slots, toolCalls, turns, usage } = body;
  let copies: Message[];
  let transcriptDigest: string;
  if (cache) {
    transcriptDigest = finishTranscriptDigest(syncTranscript(cache, messages));
    copies = cache.copies.slice();
  } else {
    const text = canonicalTranscript(messages);
    transcriptDigest = transcriptHashOf(text).digest;
    copies = JSON.parse(`[${text}]`) as Message[];
  }
  const head = { version: 2, runId, model, slots, toolCalls, turns, usage, transcriptDigest };
  const headText = canonicalJson(head);
  return {
    messages: copies,
    ...(JSON.parse(headText) as Omit<Checkpoint, "messages" | "digest">),
    slots: slotsInOrder(slots),
    digest: digestOf(headText, key),
  };
}

/**
 * What `verifyCheckpoint` found. "verified": all of it, messages included. "transcript-pending":
 * everything but the transcript of a `DeferredCheckpoint` (its `messages` are empty), which
 * `transcript` reads and verifies when called (the caller calls it once).
 */
export type VerifiedCheckpoint =
  | { status: "verified"; checkpoint: Checkpoint }
  | {
      status: "transcript-pending";
      checkpoint: Checkpoint;
      transcript: () => Promise<Message[]>;
    };

function isDeferred(value: unknown): value is DeferredCheckpoint {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<DeferredCheckpoint>).loadTranscript === "function"
  );
}

/**
 * The one way a checkpoint is verified, in any form `client.resume` takes (a checkpoint of an
 * earlier release is upgraded here first, see `checkpoint-upgrade.ts`): its shape, its digests
 * under `key`, and that its slots are the calls of its last assistant message. Anything else is
 * refused, `checkpoint:invalid` or `checkpoint:tampered`, before the caller acts on a word of
 * it. What comes back is the caller's own: messages frozen, the rest a private copy. Given a
 * `cache`, the verified transcript leaves it as though this process had snapshotted the messages
 * itself, so a resumed run's safe points hash only what it adds.
 */
export async function verifyCheckpoint(
  value: unknown,
  key?: string,
  cache?: TranscriptCache,
): Promise<VerifiedCheckpoint> {
  const older = await readVersion1(value, key);
  const current = older ? createCheckpoint(older, key) : value;
  if (isDeferred(current)) {
    const { loadTranscript, ...rest } = current;
    const checkpoint = verifyHead(rest, key);
    const transcript = async () => verifyTranscriptText(checkpoint, await loadTranscript(), cache).slice();
    return { status: "transcript-pending", checkpoint, transcript };
  }
  const { messages, ...rest } = (current ?? {}) as Partial<Checkpoint>;
  const checkpoint = verifyHead(rest, key);
  refusingMalformed(() => checkTranscriptShape(messages));
  checkpoint.messages = verifyTranscriptText(checkpoint, canonicalTranscript(messages!), cache).slice();
  return { status: "verified", checkpoint };
}

/**
 * Everything of a checkpoint but its transcript, verified on its own (its digest covers the
 * transcript's digest, not the messages): a private copy with no messages.
 */
function verifyHead(value: object, key: string | undefined): Checkpoint {
  const { digest, ...head } = value as Record<string, unknown>;
  const checked = refusingMalformed(() =>
    readCheckpointShape({ ...head, messages: [], digest }, { copyMessages: false }),
  );
  if (!sameDigest(checked.digest, digestOf(canonicalJson(head), key))) throw tampered();
  // A private copy as storing it would give one back: everything in it is JSON (the digest was
  // taken over its JSON text), and a JSON round trip of this small part costs a fraction of
  // `structuredClone`, on the path from an answer to the tool running again.
  return JSON.parse(JSON.stringify(checked)) as Checkpoint;
}

/**
 * A transcript as the canonical texts of its messages joined by ",": checked against the
 * verified head's `transcriptDigest` as it stands and parsed once; the messages come back
 * frozen. A text that is not canonical (rows stored before a host kept them so) is judged on its
 * values.
 */
function verifyTranscriptText(head: Checkpoint, text: unknown, cache?: TranscriptCache): Message[] {
  const messages = refusingMalformed(() => readTranscriptText(text));
  let { hash, digest } = transcriptHashOf(text as string);
  if (!sameDigest(head.transcriptDigest, digest)) {
    const canonical = canonicalTranscript(messages);
    ({ hash, digest } = transcriptHashOf(canonical));
    if (canonical === text || !sameDigest(head.transcriptDigest, digest)) throw tampered();
  }
  deepFreeze(messages);
  assertConsistent({ ...head, messages });
  if (cache) fillTranscriptCache(cache, messages, hash);
  return messages;
}

function assertConsistent(checkpoint: Checkpoint): void {
  if (checkpoint.slots.length === 0) return;
  const last = checkpoint.messages.at(-1);
  const calls = last?.role === "assistant" ? (last.toolCalls ?? []) : [];
  const matches =
    calls.length === checkpoint.slots.length &&
    calls.every((call, i) => call.id === checkpoint.slots[i]?.call.id);
  if (!matches) {
    throw new ToolnexusError(
      "checkpoint:invalid",
      "Checkpoint slots do not match the tool calls of its last assistant message",
    );
  }
}
