import { timingSafeEqual } from "node:crypto";
import {
  ARRAY_OPENING,
  canonicalJson,
  canonicalTranscript,
  deepFreeze,
  digestOf,
  finishDigest,
  finishTranscriptDigest,
  MESSAGES_OPENING,
  startDigest,
  syncTranscript,
  type TranscriptCache,
  tailAfterMessages,
  transcriptHashOf,
} from "./checkpoint-digest";
import { CheckpointShapeIssue, checkTranscriptShape, readCheckpointShape } from "./checkpoint-shape";
import { ToolnexusError } from "./errors";
import type { Checkpoint, CheckpointParts, Message } from "./types";

export { canonicalJson, createTranscriptCache, type TranscriptCache } from "./checkpoint-digest";

export type CheckpointBody = Omit<Checkpoint, "digest">;

/**
 * The halted turn's slots as a JSON round trip yields them, keys in their order: only the
 * digest needs them sorted, and a request's form schema lists its fields in the order they are
 * to be asked. The slots are the halted turn only, so the second serialization costs little.
 */
function slotsInOrder(slots: CheckpointBody["slots"]): CheckpointBody["slots"] {
  return JSON.parse(JSON.stringify(slots)) as CheckpointBody["slots"];
}

/**
 * Freezes a run's state into a detached, JSON-safe value with its digest. With a `cache` (one
 * per run), messages already snapshotted cost no serialization again; the digest is the same
 * either way, computed over the same canonical text.
 */
export function createCheckpoint(body: CheckpointBody, key?: string, cache?: TranscriptCache): Checkpoint {
  const { digest: _ignored, transcriptDigest: _derived, ...whole } = body as Checkpoint;
  if (whole.version === 2) return createTwoLevel(whole, key, cache);
  if (!cache) {
    const canonical = canonicalJson(whole);
    // Parsing the canonical text back yields exactly what a JSON round trip will, so the digest
    // still matches after the host stores and reloads it.
    return {
      ...(JSON.parse(canonical) as CheckpointBody),
      slots: slotsInOrder(whole.slots),
      digest: digestOf(canonical, key),
    };
  }
  const { messages, ...rest } = whole;
  const restText = canonicalJson(rest);
  const tail = tailAfterMessages(restText, rest);
  // The cache's hash has taken in every message already; a copy of it finishes this digest.
  const transcript = syncTranscript(cache, messages, key, MESSAGES_OPENING);
  return {
    messages: cache.copies.slice(),
    ...(JSON.parse(restText) as Omit<CheckpointBody, "messages">),
    slots: slotsInOrder(rest.slots),
    digest:
      tail === null ? digestOf(canonicalJson(whole), key) : finishDigest(transcript.copy().update(tail), key),
  };
}

/**
 * A version-2 checkpoint: the transcript's own digest, then the digest of the rest with it.
 * Without a cache the messages come back as parsed from their canonical text, as version 1's do.
 */
function createTwoLevel(whole: CheckpointBody, key: string | undefined, cache?: TranscriptCache): Checkpoint {
  const { messages, ...rest } = whole;
  let copies: Message[];
  let transcriptDigest: string;
  if (cache) {
    transcriptDigest = finishTranscriptDigest(syncTranscript(cache, messages, undefined, ARRAY_OPENING));
    copies = cache.copies.slice();
  } else {
    const text = canonicalTranscript(messages);
    transcriptDigest = transcriptHashOf(text).digest;
    copies = JSON.parse(`[${text}]`) as Message[];
  }
  const headText = canonicalJson({ ...rest, transcriptDigest });
  return {
    messages: copies,
    ...(JSON.parse(headText) as Omit<Checkpoint, "messages" | "digest">),
    slots: slotsInOrder(rest.slots),
    digest: digestOf(headText, key),
  };
}

function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value's checkpoint shape, or the refusal `client.resume` gives for a malformed one. */
function shapeOf(value: unknown, copyMessages: boolean): Checkpoint {
  try {
    return readCheckpointShape(value, { copyMessages });
  } catch (error) {
    if (!(error instanceof CheckpointShapeIssue)) throw error;
    throw new ToolnexusError("checkpoint:invalid", `Malformed checkpoint: ${error.message}`);
  }
}

/** Checks shape, internal consistency and digest; returns a private copy the caller may mutate. */
export function verifyCheckpoint(value: unknown, key?: string): Checkpoint {
  const checkpoint = shapeOf(value, true);
  const { digest, ...rest } = value as Checkpoint;
  if (checkpoint.version === 2) {
    const { messages, ...head } = rest;
    const transcript = transcriptHashOf(canonicalTranscript(messages)).digest;
    if (!sameDigest(head.transcriptDigest ?? "", transcript)) throw tampered();
    if (!sameDigest(digest, digestOf(canonicalJson(head), key))) throw tampered();
  } else if (!sameDigest(digest, digestOf(canonicalJson(rest), key))) throw tampered();
  assertConsistent(checkpoint);
  return structuredClone(checkpoint);
}

function tampered(): ToolnexusError {
  return new ToolnexusError("checkpoint:tampered", "Checkpoint digest does not match its contents");
}

/**
 * Everything of a version-2 checkpoint but its transcript, verified on its own (its digest
 * covers the transcript's digest, not the messages): a private copy with no messages. The
 * transcript is checked later against it by `verifyTranscriptText`.
 */
export function verifyCheckpointHead(value: unknown, key?: string): Checkpoint {
  const {
    digest,
    transcript: _text,
    loadTranscript: _load,
    ...head
  } = (value ?? {}) as Record<string, unknown>;
  const checked = shapeOf({ ...head, messages: [], digest }, false);
  if (checked.version !== 2)
    throw new ToolnexusError("checkpoint:invalid", "Malformed checkpoint: version: expected 2");
  if (!sameDigest(checked.digest, digestOf(canonicalJson(head), key))) throw tampered();
  // A private copy as storing it would give one back: everything in it is JSON (the digest was
  // taken over its JSON text), and a JSON round trip of this small part costs a fraction of
  // `structuredClone`, on the path from an answer to the tool running again.
  return JSON.parse(JSON.stringify(checked)) as Checkpoint;
}

/**
 * A version-2 transcript handed over as the canonical texts of its messages joined by ",":
 * checked against the verified head's `transcriptDigest` as it stands and parsed once; the
 * messages come back frozen. A text that is not canonical (rows stored before a host kept them
 * so) is judged on its values. Given a `cache`, it is left as though this process had
 * snapshotted the messages itself, so the resumed run's safe points hash only what it adds.
 */
export function verifyTranscriptText(head: Checkpoint, text: unknown, cache?: TranscriptCache): Message[] {
  if (typeof text !== "string")
    throw new ToolnexusError("checkpoint:invalid", "Malformed checkpoint: transcript: expected a string");
  let messages: Message[];
  try {
    messages = JSON.parse(`[${text}]`) as Message[];
  } catch {
    throw new ToolnexusError("checkpoint:invalid", "Malformed checkpoint: transcript: not JSON");
  }
  try {
    checkTranscriptShape(messages);
  } catch (error) {
    if (!(error instanceof CheckpointShapeIssue)) throw error;
    throw new ToolnexusError("checkpoint:invalid", `Malformed checkpoint: ${error.message}`);
  }
  let { hash, digest } = transcriptHashOf(text);
  if (!sameDigest(head.transcriptDigest ?? "", digest)) {
    const canonical = canonicalTranscript(messages);
    ({ hash, digest } = transcriptHashOf(canonical));
    if (canonical === text || !sameDigest(head.transcriptDigest ?? "", digest)) throw tampered();
  }
  deepFreeze(messages);
  assertConsistent({ ...head, messages });
  if (cache)
    Object.assign(cache, {
      refs: messages.slice(),
      copies: messages.slice(),
      key: undefined,
      opening: ARRAY_OPENING,
      hash,
    });
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

/**
 * `verifyCheckpoint` for a checkpoint whose transcript comes as text (`CheckpointParts`): the
 * digest is checked over that text as it stands and the messages are parsed from it, so nothing
 * is serialized again, however long the transcript. The messages come back frozen; given a
 * `cache`, it is left as though this process had snapshotted them itself, so the resumed run's
 * safe points hash only what it adds. A text that is not canonical (stored before a host kept
 * it so, say) is judged on its values by `verifyCheckpoint`, so it resumes as before.
 */
export function verifyCheckpointParts(value: unknown, key?: string, cache?: TranscriptCache): Checkpoint {
  const transcript = (value as Partial<CheckpointParts> | null)?.transcript;
  if (typeof transcript !== "string")
    throw new ToolnexusError("checkpoint:invalid", "Malformed checkpoint: transcript: expected a string");
  if ((value as Partial<CheckpointParts>).version === 2) {
    const head = verifyCheckpointHead(value, key);
    return { ...head, messages: verifyTranscriptText(head, transcript, cache).slice() };
  }
  const { transcript: _text, digest, ...rest } = value as CheckpointParts;
  let messages: Message[];
  try {
    messages = JSON.parse(`[${transcript}]`) as Message[];
  } catch {
    throw new ToolnexusError("checkpoint:invalid", "Malformed checkpoint: transcript: not JSON");
  }
  const whole = { ...rest, messages, digest };
  // The messages are checked where they stand; the run keeps the very objects parsed from the
  // hashed text, so only the rest is copied out.
  const checked = shapeOf(whole, false);
  const tail = tailAfterMessages(canonicalJson(rest), rest);
  const hash = startDigest(key).update(MESSAGES_OPENING).update(transcript);
  if (tail === null || !sameDigest(digest, finishDigest(hash.copy().update(tail), key)))
    return verifyCheckpoint(whole, key);
  const { messages: _none, ...checkedRest } = checked;
  const checkpoint: Checkpoint = { ...structuredClone(checkedRest), messages: deepFreeze(messages).slice() };
  assertConsistent(checkpoint);
  if (cache)
    Object.assign(cache, {
      refs: messages.slice(),
      copies: messages.slice(),
      key,
      opening: MESSAGES_OPENING,
      hash,
    });
  return checkpoint;
}
