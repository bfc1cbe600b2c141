import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ToolnexusError } from "./errors";
import type { Checkpoint } from "./types";

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

/** Freezes a run's state into a detached, JSON-safe value with its digest. */
export function createCheckpoint(body: CheckpointBody, key?: string): Checkpoint {
  const { digest: _ignored, ...rest } = body as Checkpoint;
  const canonical = canonicalJson(rest);
  // Parsing the canonical text back yields exactly what a JSON round trip will, so the digest
  // still matches after the host stores and reloads it.
  return { ...(JSON.parse(canonical) as CheckpointBody), digest: digestOf(canonical, key) };
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
