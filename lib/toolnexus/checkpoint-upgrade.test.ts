import { describe, expect, it } from "vitest";
import { type CheckpointBody, canonicalJson, createCheckpoint, verifyCheckpoint } from "./checkpoint";
import { createClientFromDriver } from "./client-from-driver";
import { isToolnexusError } from "./errors";
import { oneToolTurn } from "./testing/one-tool-turn";
import { recorder } from "./testing/recorder";
import { thrownCode } from "./testing/thrown-code";
import { verifyWhole } from "./testing/verify-whole";
import { version1Of } from "./testing/version-1";
import { createToolkit } from "./toolkit";
import type { Checkpoint } from "./types";

// A checkpoint an earlier release made (version 1) is upgraded where it is read, and from then on
// is today's checkpoint of the same run: the one verify point refuses it changed or malformed.

const body = (): CheckpointBody => ({
  runId: "run-1",
  model: "m",
  messages: [
    { role: "user", content: "deploy" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "deploy", args: { to: "prod" } }] },
  ],
  slots: [
    {
      call: { id: "c1", name: "deploy", args: { to: "prod" } },
      state: { status: "suspended", request: { id: "r1", kind: "approval", prompt: "ok?" } },
    },
  ],
  toolCalls: [],
  turns: 1,
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
});

const textOf = (checkpoint: { messages: Checkpoint["messages"] }) =>
  checkpoint.messages.map((m) => canonicalJson(m)).join(",");

async function refusal(value: unknown, key?: string): Promise<{ code: string; message: string }> {
  try {
    await verifyCheckpoint(value, key);
    return { code: "no error", message: "" };
  } catch (error) {
    if (!isToolnexusError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe("a version-1 checkpoint", () => {
  it.each([undefined, "secret"])("verifies as today's checkpoint of the same run (key %s)", async (key) => {
    const today = createCheckpoint(body(), key);
    const stored = JSON.parse(JSON.stringify(version1Of(today, key))) as unknown;
    expect(await verifyWhole(stored, key)).toEqual(today);
  });

  it("is refused when anything in it changed, or under another key", async () => {
    const old = version1Of(createCheckpoint(body(), "secret"), "secret");
    expect(await thrownCode(() => verifyCheckpoint({ ...old, turns: 2 }, "secret"))).toBe(
      "checkpoint:tampered",
    );
    expect(await thrownCode(() => verifyCheckpoint({ ...old, extra: true }, "secret"))).toBe(
      "checkpoint:tampered",
    );
    const edited = structuredClone(old);
    edited.messages[0] = { role: "user", content: "transfer everything" };
    expect(await thrownCode(() => verifyCheckpoint(edited, "secret"))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyCheckpoint(old, "other"))).toBe("checkpoint:tampered");
    expect(await thrownCode(() => verifyCheckpoint(old))).toBe("checkpoint:tampered");
    // Nobody turns a version-1 checkpoint into today's by relabelling it.
    expect(await thrownCode(() => verifyCheckpoint({ ...old, version: 2 }, "secret"))).toBe(
      "checkpoint:invalid",
    );
  });

  it("is refused, malformed, with where and what, before its digest is looked at", async () => {
    const old = version1Of(createCheckpoint(body()));
    expect(await refusal({ ...old, slots: "none" })).toEqual({
      code: "checkpoint:invalid",
      message: "Malformed checkpoint: slots: expected an array",
    });
    expect(await refusal({ ...old, turns: -1 })).toEqual({
      code: "checkpoint:invalid",
      message: "Malformed checkpoint: turns: expected a non-negative integer",
    });
    const { digest: _digest, ...unsigned } = old;
    expect(await refusal(unsigned)).toEqual({
      code: "checkpoint:invalid",
      message: "Malformed checkpoint: digest: expected a string",
    });
    // Slots that are not the calls of its last assistant message, under a valid digest.
    const wrong = body();
    wrong.slots[0]!.call.id = "c9";
    expect((await refusal(version1Of(createCheckpoint(wrong)))).code).toBe("checkpoint:invalid");
  });

  it("whose transcript is handed over apart is read whole first, its text judged on its values", async () => {
    const { messages, ...head } = version1Of(createCheckpoint(body()));
    const reads: string[] = [];
    const apart = (text: string) => ({
      ...head,
      loadTranscript: async () => {
        reads.push("read");
        return text;
      },
    });
    const verified = await verifyCheckpoint(apart(textOf({ messages })));
    expect(verified.status).toBe("verified");
    expect(reads).toEqual(["read"]);
    // As PostgreSQL's jsonb spelled rows before they were kept as written: spaces, keys by length.
    const loose = messages.map((m) => JSON.stringify(m, null, 1)).join(" , ");
    expect(await verifyWhole(apart(loose))).toEqual(createCheckpoint(body()));
    expect(await thrownCode(() => verifyCheckpoint(apart(loose.replace("deploy", "wipe"))))).toBe(
      "checkpoint:tampered",
    );
    expect((await refusal(apart("{"))).message).toBe("Malformed checkpoint: transcript: not JSON");
  });
});

describe("client.resume with a version-1 checkpoint a user kept", () => {
  async function halted(checkpointKey?: string) {
    const r = recorder();
    const client = createClientFromDriver(oneToolTurn("a"), checkpointKey ? { checkpointKey } : {});
    const toolkit = await createToolkit({ builtins: false, extraTools: [r.approval("a")] });
    const result = await client.run("go", { toolkit });
    expect(result.status).toBe("pending");
    return { r, client, toolkit, checkpoint: result.checkpoint! };
  }

  it.each([undefined, "secret"])("continues the run as its own checkpoint would (key %s)", async (key) => {
    const today = await halted(key);
    const expected = await today.client.resume(
      today.checkpoint,
      { id: "req-a", ok: true, data: { by: "rita" } },
      {
        toolkit: today.toolkit,
      },
    );
    const { r, client, toolkit, checkpoint } = await halted(key);
    // As an earlier release's `client.run` returned it, kept as JSON.
    const kept = JSON.parse(JSON.stringify(version1Of(checkpoint, key))) as Checkpoint;
    const answer = { id: "req-a", ok: true, data: { by: "rita" } };
    const result = await client.resume(kept, answer, { toolkit });
    expect(result.status).toBe("done");
    expect(result.text).toBe(expected.text);
    expect(result.transcript).toEqual(expected.transcript);
    expect(r.runs).toEqual({ a: 2 });
    expect(r.contexts.a?.[1]?.answer).toEqual(answer);
    // Streamed the same way.
    const again = await halted(key);
    const events = [];
    for await (const event of again.client.resumeStream(kept, answer, { toolkit: again.toolkit }))
      events.push(event.type);
    expect(events.at(-1)).toBe("done");
  });

  it("refuses a malformed or changed one with a clear error, and runs nothing", async () => {
    const { r, client, toolkit, checkpoint } = await halted();
    const kept = version1Of(checkpoint);
    const answer = { id: "req-a", ok: true };
    const malformed = { ...kept, usage: null } as unknown as Checkpoint;
    await expect(client.resume(malformed, answer, { toolkit })).rejects.toThrow(
      "Malformed checkpoint: usage: expected an object",
    );
    const changed = { ...kept, turns: 7 } as unknown as Checkpoint;
    expect(await thrownCode(() => client.resume(changed, answer, { toolkit }))).toBe("checkpoint:tampered");
    expect(r.runs).toEqual({ a: 1 });
  });
});
