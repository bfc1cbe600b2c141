import { createHash, createHmac, type Hash, timingSafeEqual } from "node:crypto";
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

/** SHA-256 of a canonical text, or HMAC-SHA256 under `key`: a checkpoint's `digest`. */
export function digestOf(canonical: string, key: string | undefined): string {
  if (key === undefined) return `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
  return `hmac-sha256:${createHmac("sha256", key).update(canonical).digest("hex")}`;
}

/** Compares two digests in constant time, so a forger learns nothing from how long a refusal took. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Where a transcript digest starts: the messages as one JSON array, unkeyed. */
const ARRAY_OPENING = "[";

/** A checkpoint's `transcriptDigest`, from the hash state after `[` and every message's text. */
export function finishTranscriptDigest(hash: Hash): string {
  return `sha256:${hash.copy().update("]").digest("hex")}`;
}

/** The canonical texts of `messages` joined by ",": a transcript as `DeferredCheckpoint` hands it over. */
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
 * never edited). `hash` has taken in `[` and the canonical texts of every cached message; a
 * checkpoint's `transcriptDigest` finishes a copy of it. `copies` are frozen,
 * detached copies shared by every later checkpoint. Entries are matched by identity on every
 * use, and a transcript that differs from the cached one is hashed again from the start and
 * serialized again from the first message that differs, so a stale entry never reaches a
 * checkpoint.
 */
export interface TranscriptCache {
  refs: Message[];
  copies: Message[];
  hash: Hash | null;
}

export function createTranscriptCache(): TranscriptCache {
  return { refs: [], copies: [], hash: null };
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Brings `cache` up to `messages`; returns the hash state after the transcript. */
export function syncTranscript(cache: TranscriptCache, messages: readonly Message[]): Hash {
  let same = 0;
  const shared = Math.min(cache.refs.length, messages.length);
  while (same < shared && cache.refs[same] === messages[same]) same += 1;
  if (cache.hash === null || same < cache.refs.length) {
    // Rare: the transcript shrank or changed. The kept copies are still exact.
    cache.hash = createHash("sha256").update(ARRAY_OPENING);
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

/** Leaves `cache` as though this process had snapshotted `messages`, whose transcript hashed to `hash`. */
export function fillTranscriptCache(cache: TranscriptCache, messages: readonly Message[], hash: Hash): void {
  Object.assign(cache, { refs: messages.slice(), copies: messages.slice(), hash });
}
