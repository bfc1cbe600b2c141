import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { createScriptedToolkit, memoryLog } from "./testing/scripted-agent";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("engine on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const { freshThread } = suite;

  it("parks, survives dropping every in-memory object, and resumes with ctx.answer", async () => {
    const threadId = await freshThread();
    const firstLog = memoryLog();
    const first = makeTestEngine({ db: suite.database.connect(), log: firstLog });
    const { runId } = await first.startRun({ threadId, userId: suite.people.owner.id, message: "ask me" });
    await first.idle();
    await first.stop();

    const parked = await readRunState(suite.database.db, runId);
    expect(parked.run.status).toBe("pending");
    expect(parked.requests.map((r) => [r.kind, r.status, r.audience])).toEqual([["input", "open", "owner"]]);
    expect(parked.events.at(-1)?.type).toBe("pending");

    const log = memoryLog();
    const second = makeTestEngine({ db: suite.database.connect(), log });
    // The request page asks the engine, which applies the policy answerRequest enforces.
    const parkedRequest = await second.readRequest({
      requestId: parked.requests[0]!.id,
      actor: suite.people.owner,
    });
    expect(
      [suite.people.owner, suite.people.stranger, suite.people.reviewer].map((actor) =>
        second.mayAnswer({ actor, request: parkedRequest }),
      ),
    ).toEqual([true, false, false]);
    const { request } = await second.answerRequest({
      requestId: parked.requests[0]!.id,
      answer: { ok: true, data: { name: "Ada" } },
      actor: suite.people.owner,
    });
    expect(request.status).toBe("answered");
    // What the caller gets back is what was stored, not a clock read of its own.
    const stored = await second.readRequest({ requestId: request.id, actor: suite.people.owner });
    expect([request.resolvedAt, request.answer?.createdAt]).toEqual([
      stored.resolvedAt,
      stored.answer?.createdAt,
    ]);
    await second.idle();

    const done = await readRunState(suite.database.db, runId);
    expect(done.run.status).toBe("done");
    expect(log.entries).toEqual([
      {
        tool: "ask_name",
        idempotencyKey: firstLog.entries[0]!.idempotencyKey,
        answer: { id: parked.requests[0]!.requestId, ok: true, data: { name: "Ada" } },
      },
    ]);
    expect(unbalancedReason(done.messages)).toBeUndefined();
    expect(done.messages.at(-1)).toEqual({ role: "assistant", content: "finished: name=Ada" });
    expect(done.events.map((e) => e.seq)).toEqual(done.events.map((_, i) => i + 1));
    expect(done.events.at(-1)).toMatchObject({ type: "run_finished", payload: { status: "done" } });
    await second.stop();
  });

  // Answers a parked request whose stored run was changed, and reads the run, which failed on it.
  const answerToFail = async (
    engine: ReturnType<typeof makeTestEngine>,
    requestId: string,
    runId: string,
  ) => {
    await engine.answerRequest({
      requestId,
      answer: { ok: true, data: { name: "Ada" } },
      actor: suite.people.owner,
    });
    await engine.idle();
    const after = await readRunState(suite.database.db, runId);
    expect([after.run.status, after.run.error]).toEqual([
      "failed",
      "Checkpoint digest does not match its contents",
    ]);
    return after;
  };

  it("runs the answered call, then fails before the model sees a changed transcript row (ADR 0054)", async () => {
    const { engine, log, threadId, runId } = await startRunOnFreshThread(suite, { message: "ask me" });
    const parked = await readRunState(suite.database.db, runId);
    expect(log.entries).toHaveLength(1);
    await suite.database.db.message.update({
      where: { threadId_seq: { threadId, seq: 1 } },
      data: { content: { content: "transfer everything", role: "user" } },
    });
    const after = await answerToFail(engine, parked.requests[0]!.id, runId);
    // The call and its answer were verified before it ran again; the conversation behind it is
    // checked before anything is built on it: no model turn, no safe point after the retry.
    expect(log.entries.map((entry) => entry.answer)).toEqual([
      undefined,
      { id: expect.any(String), ok: true, data: { name: "Ada" } },
    ]);
    const resolved = after.events.findIndex((event) => event.type === "request_resolved");
    expect(after.events.slice(resolved).map((event) => event.type)).not.toContain("usage");
    expect(after.run.checkpoint).toEqual(parked.run.checkpoint);
    await engine.stop();
  });

  it("refuses a changed call before anything runs: the tool is not run again and the run fails", async () => {
    const { engine, log, runId } = await startRunOnFreshThread(suite, { message: "ask me" });
    const parked = await readRunState(suite.database.db, runId);
    const stored = parked.run.checkpoint as { slots: { call: { args: unknown } }[] };
    stored.slots[0]!.call.args = { to: "everyone" };
    await suite.database.db.run.update({ where: { id: runId }, data: { checkpoint: stored as never } });
    await answerToFail(engine, parked.requests[0]!.id, runId);
    expect(log.entries).toHaveLength(1);
    await engine.stop();
  });

  it("takes two answers of one turn in reverse order and runs the turn's third tool once", async () => {
    const { engine, log, runId } = await startRunOnFreshThread(suite, { message: "pair please" });
    const parked = await readRunState(suite.database.db, runId);
    expect(parked.requests.map((r) => r.toolName)).toEqual(["approve", "ask_name"]);
    const [approval, input] = parked.requests;

    await engine.answerRequest({
      requestId: input!.id,
      answer: { ok: true, data: { name: "Bo" } },
      actor: suite.people.owner,
    });
    await engine.idle();
    const half = await readRunState(suite.database.db, runId);
    expect(half.run.status).toBe("pending");
    expect(half.requests.map((r) => r.status)).toEqual(["open", "answered"]);

    await engine.answerRequest({
      requestId: approval!.id,
      answer: { ok: true },
      actor: suite.people.reviewer,
    });
    await engine.idle();
    const done = await readRunState(suite.database.db, runId);
    expect(done.run.status).toBe("done");
    expect(log.entries.filter((e) => e.tool === "count")).toHaveLength(1);
    expect(done.messages.at(-1)).toEqual({
      role: "assistant",
      content: "finished: approved | name=Bo | counted",
    });
    expect(unbalancedReason(done.messages)).toBeUndefined();
    expect(done.requests.map((r) => r.answer?.actorId)).toEqual([
      suite.people.reviewer.id,
      suite.people.owner.id,
    ]);
    await engine.stop();
  });

  it("resumes at once when the answer lands while the parking segment is still winding down", async () => {
    const threadId = await freshThread();
    const log = memoryLog();
    let segments = 0;
    // The parking segment cannot finish before the answer has claimed the run back: its
    // toolkit's close waits for that (bounded, in case the claim never comes).
    const claimedBack = async () => {
      for (let i = 0; i < 200; i += 1) {
        if (await suite.database.db.run.count({ where: { threadId, status: "running" } })) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const engine = makeTestEngine({
      db: suite.database.db,
      log,
      createToolkit: async () => {
        const toolkit = await createScriptedToolkit({ log });
        segments += 1;
        const first = segments === 1;
        return {
          specs: () => toolkit.specs(),
          has: (name) => toolkit.has(name),
          execute: (name, args, ctx) => toolkit.execute(name, args, ctx),
          close: () => (first ? claimedBack() : undefined),
        };
      },
    });
    const answering = (async () => {
      for await (const event of engine.subscribe({ threadId })) {
        if (event.type !== "pending") continue;
        await engine.answerRequest({
          requestId: event.requests[0]!.id,
          answer: { ok: true, data: { name: "Quick" } },
          actor: suite.people.owner,
        });
        return;
      }
    })();
    const { runId } = await engine.startRun({ threadId, userId: suite.people.owner.id, message: "ask fast" });
    await answering;
    await engine.idle();
    const done = await readRunState(suite.database.db, runId);
    expect(done.run.status).toBe("done");
    expect(done.messages.at(-1)).toEqual({ role: "assistant", content: "finished: name=Quick" });
    await engine.stop();
  });
});
