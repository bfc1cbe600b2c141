import { createHash, createHmac, Hash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  canonicalJson,
  createCheckpoint,
  createTranscriptCache,
  verifyCheckpoint,
  verifyCheckpointParts,
} from "./checkpoint";
import { digestOf } from "./checkpoint-digest";
import { thrownCode } from "./testing/thrown-code";
import type { Checkpoint, CheckpointParts, Message } from "./types";

// A long conversation costs a run nothing per safe point and a resume nothing per message
// beyond reading it: snapshots hash only what was added, and a transcript handed over as its
// canonical text is verified as it stands. The digests are the same as ever.

const history = (count: number): Message[] =>
  Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? { role: "user", content: `question ${i}: ${"what changed? ".repeat(10)}` }
      : { role: "assistant", content: `answer ${i}: ${"it was rolled out in two stages; ".repeat(8)}` },
  );

const haltedOf = (messages: Message[], version: 1 | 2 = 1): Omit<Checkpoint, "digest"> => ({
  version,
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

const halted = (messages: Message[], version: 1 | 2 = 1) => haltedOf(messages, version);

const partsOf = ({ messages, ...rest }: Checkpoint): CheckpointParts => ({
  ...rest,
  transcript: messages.map((message) => canonicalJson(message)).join(","),
});

/** Characters hashed and serialized while `work` runs. */
function workOf(work: () => void): { hashed: number; serialized: number } {
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
    work();
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

  it("of version 2 are two-level: the transcript's SHA-256, then the rest's with it", () => {
    const state = halted(history(3), 2);
    const array = `[${state.messages.map((m) => canonicalJson(m)).join(",")}]`;
    const transcriptDigest = `sha256:${createHash("sha256").update(array).digest("hex")}`;
    const { messages: _messages, ...rest } = state;
    const headText = canonicalJson({ ...rest, transcriptDigest });
    for (const key of [undefined, "k"]) {
      const checkpoint = createCheckpoint(state, key, key ? createTranscriptCache() : undefined);
      expect(checkpoint.transcriptDigest).toBe(transcriptDigest);
      expect(checkpoint.digest).toBe(
        key
          ? `hmac-sha256:${createHmac("sha256", key).update(headText).digest("hex")}`
          : `sha256:${createHash("sha256").update(headText).digest("hex")}`,
      );
      expect(verifyCheckpoint(JSON.parse(JSON.stringify(checkpoint)), key)).toEqual(checkpoint);
    }
  });

  it.each([1, 2] as const)(
    "with a transcript cache, a safe point of version %i hashes and serializes only the messages added since",
    (version) => {
      const state = halted(history(400), version);
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
      const work = workOf(() => {
        next = createCheckpoint(state, "key", cache);
      });
      expect(next).toEqual(createCheckpoint(state, "key"));
      expect(work.hashed).toBeLessThan(whole / 20);
      expect(work.serialized).toBeLessThan(whole / 20);
    },
  );
});

describe.each([1, 2] as const)("verifyCheckpointParts (version %i)", (version) => {
  const halted = (messages: Message[]) => haltedOf(messages, version);
  it("verifies a transcript given as text without serializing it, and returns the same checkpoint", () => {
    for (const key of [undefined, "key"]) {
      const checkpoint = createCheckpoint(halted(history(400)), key);
      const parts = partsOf(checkpoint);
      const stored = JSON.parse(JSON.stringify(parts)) as unknown;
      let verified: Checkpoint | undefined;
      const work = workOf(() => {
        verified = verifyCheckpointParts(stored, key);
      });
      expect(verified).toEqual(verifyCheckpoint(checkpoint, key));
      expect(work.serialized).toBeLessThan(parts.transcript.length / 20);
      expect(() => {
        (verified!.messages[0] as { content: string }).content = "x";
      }).toThrow(TypeError);
      verified!.messages.push({ role: "user", content: "the run's own array" });
    }
  });

  it("leaves the run's cache as if it had snapshotted the transcript itself", () => {
    const checkpoint = createCheckpoint(halted(history(400)));
    const cache = createTranscriptCache();
    const { digest: _digest, ...state } = verifyCheckpointParts(partsOf(checkpoint), undefined, cache);
    state.messages.push({ role: "tool", toolCallId: "c1", name: "deploy", content: "done", isError: false });
    state.slots = [];
    let next: Checkpoint | undefined;
    const work = workOf(() => {
      next = createCheckpoint(state, undefined, cache);
    });
    expect(next).toEqual(createCheckpoint(state));
    expect(work.hashed).toBeLessThan(partsOf(checkpoint).transcript.length / 20);
  });

  it("judges a text that is not canonical on its values, and refuses any change", async () => {
    const checkpoint = createCheckpoint(halted(history(4)));
    const { messages, ...rest } = checkpoint;
    // Keys in another order and spaces: the same values, so the same checkpoint.
    const loose: CheckpointParts = {
      ...rest,
      transcript: messages.map((m) => JSON.stringify(m, null, 1)).join(" , "),
    };
    expect(verifyCheckpointParts(loose)).toEqual(checkpoint);
    const edited = partsOf(checkpoint);
    edited.transcript = edited.transcript.replace("question 0", "transfer everything");
    expect(await thrownCode(() => verifyCheckpointParts(edited))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyCheckpointParts({ ...partsOf(checkpoint), turns: 2 }))).toBe(
      "checkpoint:tampered",
    );
    expect(await thrownCode(() => verifyCheckpointParts(partsOf(checkpoint), "key"))).toBe(
      "checkpoint:tampered",
    );
    expect(await thrownCode(() => verifyCheckpointParts({ ...rest, transcript: "{" }))).toBe(
      "checkpoint:invalid",
    );
    expect(await thrownCode(() => verifyCheckpointParts({ ...rest, transcript: 1 }))).toBe(
      "checkpoint:invalid",
    );
    expect(await thrownCode(() => verifyCheckpointParts({ ...rest, transcript: '{"role":"robot"}' }))).toBe(
      "checkpoint:invalid",
    );
  });
});
