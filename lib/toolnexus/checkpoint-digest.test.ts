import { createHash, createHmac, Hash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type CheckpointBody,
  canonicalJson,
  createCheckpoint,
  createTranscriptCache,
  type TranscriptCache,
  verifyCheckpoint,
} from "./checkpoint";
import { digestOf } from "./checkpoint-digest";
import { thrownCode } from "./testing/thrown-code";
import { verifyWhole } from "./testing/verify-whole";
import type { Checkpoint, DeferredCheckpoint, Message } from "./types";

// A long conversation costs a run nothing per safe point and a resume nothing per message
// beyond reading it: snapshots hash only what was added, and a transcript handed over as its
// canonical text is verified as it stands. The digests are the same as ever.

const history = (count: number): Message[] =>
  Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? { role: "user", content: `question ${i}: ${"what changed? ".repeat(10)}` }
      : { role: "assistant", content: `answer ${i}: ${"it was rolled out in two stages; ".repeat(8)}` },
  );

const halted = (messages: Message[]): CheckpointBody => ({
  runId: "run-1",
  model: "m",
  messages: [
    ...messages,
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "deploy", args: { to: "prod", n: 2 } }] },
  ],
  slots: [
    {
      call: { id: "c1", name: "deploy", args: { to: "prod", n: 2 } },
      state: { status: "suspended", request: { id: "r1", kind: "approval", prompt: "ok?" } },
    },
  ],
  toolCalls: [],
  turns: 1,
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
});

const textOf = (messages: Message[]) => messages.map((message) => canonicalJson(message)).join(",");

/** The checkpoint as a host that keeps its transcript as text hands it over. */
const apart = ({ messages, ...rest }: Checkpoint, text = textOf(messages)): DeferredCheckpoint => ({
  ...rest,
  loadTranscript: async () => text,
});

/** The whole checkpoint from one handed over apart, its transcript read and verified now. */
async function verifyApart(value: DeferredCheckpoint, key?: string, cache?: TranscriptCache) {
  const verified = await verifyCheckpoint(value, key, cache);
  if (verified.status !== "transcript-pending")
    throw new Error("expected the transcript to be read when asked");
  return { ...verified.checkpoint, messages: await verified.transcript() };
}

/** Characters hashed and serialized while `work` runs. */
async function workOf(work: () => unknown): Promise<{ hashed: number; serialized: number }> {
  let hashed = 0;
  let serialized = 0;
  const update = Hash.prototype.update;
  const stringify = JSON.stringify;
  vi.spyOn(Hash.prototype, "update").mockImplementation(function (
    this: Hash,
    data: unknown,
    ...more: unknown[]
  ) {
    hashed += typeof data === "string" ? data.length : (data as Buffer).length;
    return (update as (...args: unknown[]) => Hash).call(this, data, ...more);
  });
  vi.spyOn(JSON, "stringify").mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = stringify(...args);
    serialized += text?.length ?? 0;
    return text;
  });
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return { hashed, serialized };
}

afterEach(() => vi.restoreAllMocks());

describe("checkpoint digests", () => {
  it("are SHA-256 and HMAC-SHA256 of the canonical text, whatever the key's length", () => {
    const text = canonicalJson(halted(history(3)));
    expect(digestOf(text, undefined)).toBe(`sha256:${createHash("sha256").update(text).digest("hex")}`);
    for (const key of ["", "k", "é-key", "x".repeat(64), "y".repeat(65), "z".repeat(200)])
      expect(digestOf(text, key)).toBe(`hmac-sha256:${createHmac("sha256", key).update(text).digest("hex")}`);
  });

  it("are two-level: the transcript's SHA-256, then the rest's with it", async () => {
    const state = halted(history(3));
    const array = `[${state.messages.map((m) => canonicalJson(m)).join(",")}]`;
    const transcriptDigest = `sha256:${createHash("sha256").update(array).digest("hex")}`;
    const { messages: _messages, ...rest } = state;
    const headText = canonicalJson({ ...rest, version: 2, transcriptDigest });
    for (const key of [undefined, "k"]) {
      const checkpoint = createCheckpoint(state, key, key ? createTranscriptCache() : undefined);
      expect(checkpoint.transcriptDigest).toBe(transcriptDigest);
      expect(checkpoint.digest).toBe(
        key
          ? `hmac-sha256:${createHmac("sha256", key).update(headText).digest("hex")}`
          : `sha256:${createHash("sha256").update(headText).digest("hex")}`,
      );
      expect(await verifyWhole(JSON.parse(JSON.stringify(checkpoint)), key)).toEqual(checkpoint);
    }
  });

  it("with a transcript cache, a safe point hashes and serializes only the messages added since", async () => {
    const state = halted(history(400));
    const cache = createTranscriptCache();
    createCheckpoint(state, "key", cache);
    const whole = canonicalJson(state).length;
    state.messages.push({
      role: "tool",
      toolCallId: "c1",
      name: "deploy",
      content: "done",
      isError: false,
    });
    state.slots = [];
    let next: Checkpoint | undefined;
    const work = await workOf(() => {
      next = createCheckpoint(state, "key", cache);
    });
    expect(next).toEqual(createCheckpoint(state, "key"));
    expect(work.hashed).toBeLessThan(whole / 20);
    expect(work.serialized).toBeLessThan(whole / 20);
  });
});

describe("a transcript handed over as text", () => {
  it("is verified without serializing it, and gives the same checkpoint", async () => {
    for (const key of [undefined, "key"]) {
      const checkpoint = createCheckpoint(halted(history(400)), key);
      const given = apart(JSON.parse(JSON.stringify(checkpoint)) as Checkpoint);
      let verified: Checkpoint | undefined;
      const work = await workOf(async () => {
        verified = await verifyApart(given, key);
      });
      expect(verified).toEqual(await verifyWhole(checkpoint, key));
      expect(work.serialized).toBeLessThan(textOf(checkpoint.messages).length / 20);
      expect(() => {
        (verified!.messages[0] as { content: string }).content = "x";
      }).toThrow(TypeError);
      verified!.messages.push({ role: "user", content: "the run's own array" });
    }
  });

  it("leaves the run's cache as if it had snapshotted the transcript itself", async () => {
    const checkpoint = createCheckpoint(halted(history(400)));
    const cache = createTranscriptCache();
    const { digest: _digest, ...state } = await verifyApart(apart(checkpoint), undefined, cache);
    state.messages.push({ role: "tool", toolCallId: "c1", name: "deploy", content: "done", isError: false });
    state.slots = [];
    let next: Checkpoint | undefined;
    const work = await workOf(() => {
      next = createCheckpoint(state, undefined, cache);
    });
    expect(next).toEqual(createCheckpoint(state));
    expect(work.hashed).toBeLessThan(textOf(checkpoint.messages).length / 20);
  });

  it("is judged on its values when not canonical, and refused on any change", async () => {
    const checkpoint = createCheckpoint(halted(history(4)));
    const { messages } = checkpoint;
    // Keys in another order and spaces: the same values, so the same checkpoint.
    const loose = messages.map((m) => JSON.stringify(m, null, 1)).join(" , ");
    expect(await verifyApart(apart(checkpoint, loose))).toEqual(checkpoint);
    const edited = textOf(messages).replace("question 0", "transfer everything");
    expect(await thrownCode(() => verifyApart(apart(checkpoint, edited)))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyApart({ ...apart(checkpoint), turns: 2 }))).toBe(
      "checkpoint:tampered",
    );
    expect(await thrownCode(() => verifyApart(apart(checkpoint), "key"))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyApart(apart(checkpoint, "{")))).toBe("checkpoint:invalid");
    const notText = { ...apart(checkpoint), loadTranscript: async () => 1 } as unknown as DeferredCheckpoint;
    expect(await thrownCode(() => verifyApart(notText))).toBe("checkpoint:invalid");
    expect(await thrownCode(() => verifyApart(apart(checkpoint, '{"role":"robot"}')))).toBe(
      "checkpoint:invalid",
    );
  });
});
