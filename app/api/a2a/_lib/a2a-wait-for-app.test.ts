import {
  type Checkpoint,
  type Context,
  createA2AWaitFor,
  createClientFromDriver,
  createToolkit,
  defineTool,
  pending,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import { tokenFor } from "@/app/api/mcp/_lib/testing/mcp-fixture";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { createScriptedDriver } from "@/lib/toolnexus/testing/scripted-driver";
import { type ServedA2A, withA2AServer } from "./testing/with-a2a-server";

// The two halves together (ADR 0085): an agent built on the library hands its approval to this
// app with createA2AWaitFor, a reviewer approves in the app, and the agent's tool goes on. An
// asking process that restarts finds its task again: the app runs it once.

const PROMPT = "refund order 4321 for $250";

function refundToolkit(seen: Array<Context["answer"]>) {
  const refund = defineTool({
    name: "refund",
    description: "Refunds once the other agent approved",
    run: (_args, ctx) => {
      if (!ctx?.answer) return pending({ kind: "approval", prompt: PROMPT });
      seen.push(ctx.answer);
      return "refunded";
    },
  });
  return createToolkit({ builtins: false, extraTools: [refund] });
}

const script = () =>
  createScriptedDriver((input) =>
    input.messages.some((message) => message.role === "tool" && !message.isError)
      ? { text: "all done" }
      : { toolCalls: [{ id: "call-1", name: "refund" }] },
  );

async function until<T>(probe: () => Promise<T | null | undefined>, what: string): Promise<T> {
  for (let tries = 0; tries < 400; tries += 1) {
    const found = await probe();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(["sqlite", "postgres"] as const)("createA2AWaitFor asking this app on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  let served: ServedA2A;
  withA2AServer((started) => ({ db, engine, served } = started), provider);

  async function asker() {
    const person = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { token } = await tokenFor(db, person, ["a2a"]);
    const waitFor = (signal?: AbortSignal) =>
      createA2AWaitFor({
        agentCardUrl: served.base,
        headers: { Authorization: `Bearer ${token}` },
        onInputRequired: "wait",
        pollEveryMs: 25,
        signal,
      });
    /** The request the app's run parked on for the asker's task. */
    const parkedRequest = () =>
      until(
        () => db.request.findFirst({ where: { run: { userId: person.id }, status: "open" } }),
        "the app's run to park",
      );
    const approve = async () =>
      engine.answerRequest({
        requestId: (await parkedRequest()).id,
        actor: reviewer,
        answer: (request) => ({ ok: true, data: { arguments: request.args } }),
      });
    return { person, waitFor, parkedRequest, approve };
  }

  it("waits while the app's run is input-required, and answers once a reviewer approves there", async () => {
    const { person, waitFor, approve } = await asker();
    const asking = waitFor()({ id: "refund-4321", kind: "approval", prompt: PROMPT });
    await approve();
    const answer = await asking;
    expect(answer).toMatchObject({
      id: "refund-4321",
      ok: true,
      data: { text: expect.stringContaining("4321") },
    });
    const runs = await db.run.findMany({ where: { userId: person.id } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "done" });
  });

  it("is found again by a restarted asking process: one task on the app, and the answer arrives", async () => {
    const { person, waitFor, parkedRequest, approve } = await asker();
    const seen: Array<Context["answer"]> = [];
    const toolkit = await refundToolkit(seen);
    let checkpoint: Checkpoint | undefined;

    // The first process asks, then dies while the app's run waits for its reviewer.
    const dies = new AbortController();
    const first = createClientFromDriver(script(), { waitFor: waitFor(dies.signal) });
    const running = first.run("refund it", {
      toolkit,
      onCheckpoint: (saved) => {
        checkpoint = structuredClone(saved);
      },
    });
    await parkedRequest();
    dies.abort();
    await expect(running).rejects.toThrow();
    expect(checkpoint?.slots[0]?.state.status).toBe("suspended");

    // A new process resumes the stored checkpoint with a fresh waitFor, and the reviewer approves.
    const second = createClientFromDriver(script(), { waitFor: waitFor() });
    const resumed = second.resume(JSON.parse(JSON.stringify(checkpoint)) as Checkpoint, [], { toolkit });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await approve();
    const result = await resumed;
    await toolkit.close();

    expect(result.status).toBe("done");
    expect(result.text).toBe("all done");
    expect(seen).toEqual([
      expect.objectContaining({ ok: true, data: { text: expect.stringContaining("4321") } }),
    ]);
    expect(await db.run.count({ where: { userId: person.id } })).toBe(1);
    expect(await db.thread.count({ where: { userId: person.id } })).toBe(1);
  });
});
