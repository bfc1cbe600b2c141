import { createHash, type Hash } from "node:crypto";
import type { Message } from "./types";

/** JSON with object keys sorted at every depth, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, current: unknown) => {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return current;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(current).sort()) sorted[key] = (current as Record<string, unknown>)[key];
    return sorted;
  });
}

const BLOCK = 64;

// HMAC-SHA256 (RFC 2104) spelled out over plain SHA-256 hashes, because a Hash can be copied
// half-way and an Hmac cannot: a run keeps the state after its transcript and finishes a copy
// per checkpoint. The digests are the ones createHmac gives (checkpoint-digest.test.ts).
function paddedKey(key: string, byte: number): Buffer {
  let raw = Buffer.from(key, "utf8");
  if (raw.length > BLOCK) raw = createHash("sha256").update(raw).digest();
  const padded = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i += 1) padded[i] = (raw[i] ?? 0) ^ byte;
  return padded;
}

/** A digest in progress: feed it the canonical text, in as many pieces as it comes. */
export function startDigest(key: string | undefined): Hash {
  const hash = createHash("sha256");
  if (key !== undefined) hash.update(paddedKey(key, 0x36));
  return hash;
}

export function finishDigest(hash: Hash, key: string | undefined): string {
  if (key === undefined) return `sha256:${hash.digest("hex")}`;
  const outer = createHash("sha256").update(paddedKey(key, 0x5c)).update(hash.digest());
  return `hmac-sha256:${outer.digest("hex")}`;
}

export function digestOf(canonical: string, key: string | undefined): string {
  return finishDigest(startDigest(key).update(canonical), key);
}

/**
 * The canonical text of a whole checkpoint is `{"messages":[` + the messages' texts joined by
 * "," + `]` + this tail: "messages" sorts before every other key a checkpoint has. `restText` is
 * the canonical text of the rest; null when a key of it would sort before "messages" (never so
 * for a checkpoint this library made), which the caller then canonicalizes whole.
 */
export function tailAfterMessages(restText: string, rest: object): string | null {
  if (Object.keys(rest).some((key) => key < "messages")) return null;
  return restText === "{}" ? "]}" : `],${restText.slice(1)}`;
}

export const MESSAGES_OPENING = '{"messages":[';

/** Where a version-2 transcript digest starts: the messages as one JSON array, unkeyed. */
export const ARRAY_OPENING = "[";

/** Version 2's `transcriptDigest`, from the hash state after `[` and every message's text. */
export function finishTranscriptDigest(hash: Hash): string {
  return `sha256:${hash.copy().update("]").digest("hex")}`;
}

/** The canonical texts of `messages` joined by ",": a transcript as `CheckpointParts` holds it. */
export function canonicalTranscript(messages: readonly Message[]): string {
  return messages.map((message) => canonicalJson(message)).join(",");
}

/** The hash state after `[` and `text` (a transcript's texts joined by ","), and its digest. */
export function transcriptHashOf(text: string): { hash: Hash; digest: string } {
  const hash = createHash("sha256").update(ARRAY_OPENING).update(text);
  return { hash, digest: finishTranscriptDigest(hash) };
}

/**
 * What one run's earlier snapshots did already, so its next safe point serializes and hashes
 * only the messages added since: a run's transcript only grows (messages are appended whole,
 * never edited). `hash` has taken in `opening` and the canonical texts of every cached
 * message, under `key`; a checkpoint's digest finishes a copy of it (version 1: the whole
 * checkpoint's, keyed; version 2: the transcript's own, `[` and no key). `copies` are frozen,
 * detached copies shared by every later checkpoint. Entries are matched by identity on every
 * use, and a transcript that differs from the cached one is hashed again from the start and
 * serialized again from the first message that differs, so a stale entry never reaches a
 * checkpoint.
 */
export interface TranscriptCache {
  refs: Message[];
  copies: Message[];
  key: string | undefined;
  opening: string;
  hash: Hash | null;
}

export function createTranscriptCache(): TranscriptCache {
  return { refs: [], copies: [], key: undefined, opening: ARRAY_OPENING, hash: null };
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Brings `cache` up to `messages`, hashed after `opening` under `key`; returns the hash state
 * after the transcript.
 */
export function syncTranscript(
  cache: TranscriptCache,
  messages: readonly Message[],
  key: string | undefined,
  opening: string,
): Hash {
  let same = 0;
  const shared = Math.min(cache.refs.length, messages.length);
  while (same < shared && cache.refs[same] === messages[same]) same += 1;
  if (cache.hash === null || cache.key !== key || cache.opening !== opening || same < cache.refs.length) {
    // Rare: the transcript shrank or changed, or the key or the form did (a run resumed from a
    // version-1 checkpoint snapshots version 2). The kept copies are still exact.
    cache.hash = startDigest(key).update(opening);
    cache.key = key;
    cache.opening = opening;
    for (let i = 0; i < same; i += 1)
      cache.hash.update(`${i > 0 ? "," : ""}${canonicalJson(cache.copies[i])}`);
  }
  cache.refs.length = same;
  cache.copies.length = same;
  for (let i = same; i < messages.length; i += 1) {
    const text = canonicalJson(messages[i]);
    cache.hash.update(`${i > 0 ? "," : ""}${text}`);
    cache.refs.push(messages[i]!);
    cache.copies.push(deepFreeze(JSON.parse(text) as Message));
  }
  return cache.hash;
}
