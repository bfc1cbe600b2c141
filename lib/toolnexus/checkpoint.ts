import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ToolnexusError } from "./errors";
import type { Checkpoint, Message } from "./types";

export type CheckpointBody = Omit<Checkpoint, "digest">;

const record = z.record(z.string(), z.unknown());
const usage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });
const request = z.object({
  id: z.string().min(1),
  kind: z.string(),
  prompt: z.string(),
  url: z.string().optional(),
  data: record.optional(),
  expiresAt: z.string().optional(),
});
const toolCall = z.object({
  id: z.string(),
  name: z.string(),
  args: record,
  invalidArgs: z.string().optional(),
});
const toolResult = z.object({ output: z.string(), isError: z.boolean(), metadata: record.optional() });
const message = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({ role: z.literal("assistant"), content: z.string(), toolCalls: z.array(toolCall).optional() }),
  z.object({
    role: z.literal("tool"),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
  }),
]);
const slotState = z.discriminatedUnion("status", [
  z.object({ status: z.literal("queued") }),
  z.object({ status: z.literal("done"), result: toolResult }),
  z.object({ status: z.literal("suspended"), request, resumeOnDecline: z.literal(true).optional() }),
]);
const checkpointSchema = z.object({
  version: z.literal(1),
  runId: z.string().min(1),
  model: z.string(),
  messages: z.array(message),
  slots: z.array(z.object({ call: toolCall, state: slotState })),
  toolCalls: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      args: record,
      output: z.string(),
      isError: z.boolean(),
      metadata: record.optional(),
    }),
  ),
  turns: z.number().int().nonnegative(),
  usage,
  digest: z.string(),
});

/** JSON with object keys sorted at every depth, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, current: unknown) => {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return current;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(current).sort()) sorted[key] = (current as Record<string, unknown>)[key];
    return sorted;
  });
}

function digestOf(canonical: string, key: string | undefined): string {
  if (key === undefined) return `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
  return `hmac-sha256:${createHmac("sha256", key).update(canonical).digest("hex")}`;
}

/**
 * The canonical text and a frozen, detached copy of every message one run has snapshotted, so
 * its next safe point serializes only the messages added since: a run's transcript only grows
 * (messages are appended whole, never edited). Entries are matched by identity on every use,
 * and a transcript that differs from the cached one is serialized again from the first
 * message that differs, so a stale entry can never reach a checkpoint.
 */
export interface TranscriptCache {
  refs: Message[];
  texts: string[];
  copies: Message[];
}

export function createTranscriptCache(): TranscriptCache {
  return { refs: [], texts: [], copies: [] };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function syncTranscript(cache: TranscriptCache, messages: readonly Message[]): void {
  let same = 0;
  const shared = Math.min(cache.refs.length, messages.length);
  while (same < shared && cache.refs[same] === messages[same]) same += 1;
  cache.refs.length = same;
  cache.texts.length = same;
  cache.copies.length = same;
  for (let i = same; i < messages.length; i += 1) {
    const text = canonicalJson(messages[i]);
    cache.refs.push(messages[i]!);
    cache.texts.push(text);
    // Shared by every later checkpoint of the run, hence frozen: nobody can change one through another.
    cache.copies.push(deepFreeze(JSON.parse(text) as Message));
  }
}

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
  const { digest: _ignored, ...whole } = body as Checkpoint;
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
  syncTranscript(cache, messages);
  const restText = canonicalJson(rest);
  // "messages" sorts before every other key of a checkpoint, so the canonical text of the
  // whole is the messages' texts followed by the rest's members, exactly as canonicalJson(whole).
  const canonical = `{"messages":[${cache.texts.join(",")}]${restText === "{}" ? "}" : `,${restText.slice(1)}`}`;
  return {
    messages: cache.copies.slice(),
    ...(JSON.parse(restText) as Omit<CheckpointBody, "messages">),
    slots: slotsInOrder(rest.slots),
    digest: digestOf(canonical, key),
  };
}

function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "unknown problem";
}

/** Checks shape, internal consistency and digest; returns a private copy the caller may mutate. */
export function verifyCheckpoint(value: unknown, key?: string): Checkpoint {
  const parsed = checkpointSchema.safeParse(value);
  if (!parsed.success) {
    throw new ToolnexusError("checkpoint:invalid", `Malformed checkpoint: ${describeIssue(parsed.error)}`);
  }
  const { digest, ...rest } = value as Checkpoint;
  if (!sameDigest(digest, digestOf(canonicalJson(rest), key))) {
    throw new ToolnexusError("checkpoint:tampered", "Checkpoint digest does not match its contents");
  }
  const checkpoint = parsed.data as Checkpoint;
  assertConsistent(checkpoint);
  return structuredClone(checkpoint);
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
