import { describe, expect, it } from "vitest";
import {
  type CheckpointBody,
  canonicalJson,
  createCheckpoint,
  createTranscriptCache,
  verifyCheckpoint,
} from "./checkpoint";
import { thrownCode } from "./testing/thrown-code";
import { verifyWhole } from "./testing/verify-whole";

const body = (): CheckpointBody => ({
  runId: "run-1",
  model: "m",
  messages: [
    { role: "user", content: "do a" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "a", args: { n: 1 } }] },
  ],
  slots: [
    {
      call: { id: "c1", name: "a", args: { n: 1 } },
      state: { status: "suspended", request: { id: "r1", kind: "approval", prompt: "ok?" } },
    },
  ],
  toolCalls: [],
  turns: 1,
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", async () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});

describe("checkpoints", () => {
  it("carries a SHA-256 digest and survives a JSON round trip", async () => {
    const cp = createCheckpoint(body());
    expect(cp.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const reloaded = JSON.parse(JSON.stringify(cp)) as unknown;
    expect(await verifyWhole(reloaded)).toEqual(cp);
  });

  it("keeps the order of keys, so a request's form asks its fields in the order declared", async () => {
    const state = body();
    const schema = { type: "object", properties: { to: {}, from: {}, date: {} } };
    state.slots[0]!.state = {
      status: "suspended",
      request: { id: "r1", prompt: "details?", kind: "input", data: { schema } },
    };
    // Without and with the run's transcript cache, the two ways the engine makes checkpoints.
    for (const cp of [createCheckpoint(state), createCheckpoint(state, undefined, createTranscriptCache())]) {
      const slot = cp.slots[0]!.state;
      if (slot.status !== "suspended") throw new Error("expected a suspended slot");
      expect(Object.keys(slot.request)).toEqual(["id", "prompt", "kind", "data"]);
      expect(Object.keys((slot.request.data!.schema as typeof schema).properties)).toEqual([
        "to",
        "from",
        "date",
      ]);
      // The digest does not depend on the order: the same state, keys sorted, verifies.
      const sorted = JSON.parse(canonicalJson(cp)) as unknown;
      expect((await verifyWhole(sorted)).digest).toBe(cp.digest);
    }
  });

  it("is detached from the state it was made from", async () => {
    const state = body();
    const cp = createCheckpoint(state);
    state.messages.push({ role: "user", content: "later" });
    expect(cp.messages).toHaveLength(2);
  });

  it("returns a private copy on verify", async () => {
    const cp = createCheckpoint(body());
    const copy = await verifyWhole(cp);
    copy.messages.pop();
    copy.slots.pop();
    expect(cp.messages).toHaveLength(2);
    expect(cp.slots).toHaveLength(1);
  });

  it("detects any change to the contents as tampering", async () => {
    const cp = createCheckpoint(body());
    const edited = structuredClone(cp);
    edited.slots[0]!.call.args = { n: 2 };
    expect(await thrownCode(() => verifyCheckpoint(edited))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyCheckpoint({ ...cp, digest: "sha256:00" }))).toBe(
      "checkpoint:tampered",
    );
    expect(await thrownCode(() => verifyCheckpoint({ ...cp, extra: true }))).toBe("checkpoint:tampered");
  });

  it("uses HMAC-SHA-256 with a key, and a digest made without the key does not verify with it", async () => {
    const signed = createCheckpoint(body(), "secret-1");
    expect(signed.digest).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(await thrownCode(() => verifyCheckpoint(signed, "secret-1"))).toBe("no error");
    expect(await thrownCode(() => verifyCheckpoint(signed, "secret-2"))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyCheckpoint(signed))).toBe("checkpoint:tampered");
    // Someone without the key cannot re-digest an edit with plain SHA-256 and pass it off.
    const forged = createCheckpoint({ ...body(), turns: 5 });
    expect(await thrownCode(() => verifyCheckpoint(forged, "secret-1"))).toBe("checkpoint:tampered");
  });

  it("rejects malformed input as invalid", async () => {
    expect(await thrownCode(() => verifyCheckpoint(null))).toBe("checkpoint:invalid");
    expect(await thrownCode(() => verifyCheckpoint("{}"))).toBe("checkpoint:invalid");
    expect(await thrownCode(() => verifyCheckpoint({ ...createCheckpoint(body()), version: 3 }))).toBe(
      "checkpoint:invalid",
    );
    const { transcriptDigest: _dropped, ...oneLevel } = createCheckpoint(body());
    expect(await thrownCode(() => verifyCheckpoint(oneLevel))).toBe("checkpoint:invalid");
    const noSlotsState = createCheckpoint(body()) as unknown as Record<string, unknown>;
    delete noSlotsState.slots;
    expect(await thrownCode(() => verifyCheckpoint(noSlotsState))).toBe("checkpoint:invalid");
  });

  it("rejects slots that do not match the last assistant message, even with a valid digest", async () => {
    const wrong = body();
    wrong.slots[0]!.call.id = "c9";
    expect(await thrownCode(() => verifyCheckpoint(createCheckpoint(wrong)))).toBe("checkpoint:invalid");
  });

  it("with a transcript cache, is the same checkpoint as without, however the transcript changed", async () => {
    const state = body();
    const cache = createTranscriptCache();
    const same = (key?: string) => {
      const cached = createCheckpoint(state, key, cache);
      const plain = createCheckpoint(state, key);
      expect(cached).toEqual(plain);
      expect(JSON.stringify(cached)).toBe(JSON.stringify(plain));
      return verifyWhole(JSON.parse(JSON.stringify(cached)), key).then((verified) =>
        expect(verified).toEqual(plain),
      );
    };
    await same();
    await same("secret-1");
    // Grown: only the new message is serialized, and it is in the digest.
    state.messages.push({ role: "tool", toolCallId: "c1", name: "a", content: "done", isError: false });
    state.slots = [];
    await same();
    // A message replaced in the middle (never done by the loop) is noticed, not served stale.
    state.messages[1] = { role: "assistant", content: "changed" };
    await same();
    state.messages.length = 1;
    await same("secret-1");
  });

  it("with a transcript cache, shares frozen copies detached from the run's own messages", async () => {
    const state = body();
    const cache = createTranscriptCache();
    const first = createCheckpoint(state, undefined, cache);
    (state.messages[0] as { content: string }).content = "edited in place";
    state.messages.push({ role: "user", content: "later" });
    expect(first.messages).toHaveLength(2);
    expect(first.messages[0]).toEqual({ role: "user", content: "do a" });
    expect(() => {
      (first.messages[0] as { content: string }).content = "x";
    }).toThrow(TypeError);
    // What verifying hands back is frozen too, in an array of the host's own.
    const copy = await verifyWhole(first);
    expect(() => {
      (copy.messages[0] as { content: string }).content = "mine";
    }).toThrow(TypeError);
    copy.messages.push({ role: "user", content: "mine" });
    expect(first.messages).toHaveLength(2);
  });
});
