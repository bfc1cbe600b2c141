import {
  createClientFromDriver,
  createInProcessDriver,
  createToolkit,
  defineTool,
  type InProcessPart,
  type ModelInput,
  pending,
} from "toolnexus";
import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { makeTestEngine, readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { createScriptedToolkit, memoryLog } from "./testing/scripted-agent";

// When a Stop is refused and when it works again (ADR 0055): from the statement that takes a
// parked run back to running its answered calls may start, and a Stop is refused until a safe
// point has stored their results; then, or once the run has parked again, a Stop ends it.

function released() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}

const flagOf = async (suite: ReturnType<typeof useEngineSuite>, runId: string) =>
  (await suite.database.db.run.findUniqueOrThrow({ where: { id: runId } })).answeredCallsStarted;

async function until(check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("timed out");
}

describe.each<TestProvider>(["sqlite", "postgres"])("a Stop after an answer on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("is refused while the answered call works, and the call finishes and is shown", async () => {
    const threadId = await suite.freshThread();
    const { owner, reviewer, admin } = suite.people;
    const log = memoryLog();
    const work = released();
    let working = false;
    const engine = makeTestEngine({
      db: suite.database.db,
      log,
      createToolkit: () =>
        createScriptedToolkit({
          log,
          block: () => {
            working = true;
            return work.gate;
          },
        }),
    });
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "block-after-answer" });
    await engine.idle();
    const [request] = (await readRunState(suite.database.db, runId)).requests;
    expect(await flagOf(suite, runId)).toBe(false);
    await engine.answerRequest({ requestId: request!.id, answer: { ok: true }, actor: reviewer });
    await until(() => working);

    expect(await flagOf(suite, runId)).toBe(true);
    for (const actor of [owner, admin]) {
      const refused = await rejection(engine.cancelRun({ runId, actor }));
      expect(isAppError(refused, "conflict:calls_started"), String(refused)).toBe(true);
    }
    expect((await readRunState(suite.database.db, runId)).run.status).toBe("running");

    work.release();
    await engine.idle();
    const state = await readRunState(suite.database.db, runId);
    expect(state.run).toMatchObject({ status: "done", answeredCallsStarted: false });
    const results = state.events.filter((event) => event.type === "tool_result");
    expect(results.map((event) => (event.payload as { output: string }).output)).toEqual([
      "approved and done",
    ]);
    // Its approver reads that the approval was used.
    expect(await engine.readRequest({ requestId: request!.id, actor: reviewer })).toMatchObject({
      status: "answered",
      runStoppedFirst: false,
    });
    await engine.stop();
  });

  it("wins over an approval while the run still waits on another request, and says so on it", async () => {
    const threadId = await suite.freshThread();
    const { owner, reviewer } = suite.people;
    const log = memoryLog();
    const engine = makeTestEngine({ db: suite.database.db, log });
    // "pair" parks on an approval and a question at once: approving one does not resume the run.
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "pair" });
    await engine.idle();
    const approval = (await readRunState(suite.database.db, runId)).requests.find(
      (request) => request.toolName === "approve",
    )!;
    const accepted = await engine.answerRequest({
      requestId: approval.id,
      answer: { ok: true },
      actor: reviewer,
    });
    expect(accepted.request.status).toBe("answered");

    await engine.cancelRun({ runId, actor: owner });
    await engine.idle();
    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("cancelled");
    expect(state.requests.map((request) => [request.toolName, request.status])).toEqual([
      ["approve", "answered"],
      ["ask_name", "cancelled"],
    ]);
    expect(log.entries.filter((entry) => entry.answer)).toEqual([]);
    // The approval stays recorded as given, and its request tells whoever reads it that the call
    // it approved never ran.
    expect(await engine.readRequest({ requestId: approval.id, actor: reviewer })).toMatchObject({
      status: "answered",
      answer: { ok: true, actorId: reviewer.id },
      runStoppedFirst: true,
    });
    await engine.stop();
  });
  it("works again once a safe point has stored the answered call's result", async () => {
    const threadId = await suite.freshThread();
    const { owner, reviewer } = suite.people;
    const log = memoryLog();
    const model = released();
    let thinking = false;
    // The model's turn after the tool result waits until released, so the run is caught between.
    const generate = (input: ModelInput) => {
      if (input.messages.at(-1)?.role !== "tool") {
        return { toolCalls: [{ name: "approve_then_block", args: {} }] };
      }
      return (async function* (): AsyncGenerator<InProcessPart> {
        thinking = true;
        await model.gate;
        yield { type: "text", delta: "too late" };
      })();
    };
    const engine = makeTestEngine({
      db: suite.database.db,
      log,
      createClient: () => createClientFromDriver(createInProcessDriver({ model: "between", generate })),
    });
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "go" });
    await engine.idle();
    const [request] = (await readRunState(suite.database.db, runId)).requests;
    await engine.answerRequest({ requestId: request!.id, answer: { ok: true }, actor: reviewer });
    await until(() => thinking);

    expect(await flagOf(suite, runId)).toBe(false);
    await engine.cancelRun({ runId, actor: owner });
    model.release();
    await engine.idle();
    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("cancelled");
    // The call ran before the Stop, and the chat shows its result.
    const results = state.events.filter((event) => event.type === "tool_result");
    expect(results.map((event) => (event.payload as { output: string }).output)).toEqual([
      "approved and done",
    ]);
    await engine.stop();
  });

  it("works again once the run has parked on its next request", async () => {
    const threadId = await suite.freshThread();
    const { owner, reviewer } = suite.people;
    const log = memoryLog();
    // The approved call asks its next question at once, so the run parks straight from the
    // resumed call, with no safe point between: the park itself lets a Stop end it again.
    const twoSteps = defineTool({
      name: "two_steps",
      description: "Needs an approval, then a name.",
      run: (_args, ctx) => {
        if (!ctx?.answer) return pending({ kind: "approval", prompt: "Approve?" });
        if (ctx.answer.data?.name === undefined) {
          const next = pending({ kind: "input", prompt: "Name?" });
          return { ...next, metadata: { ...next.metadata, continues: ctx.answer.id } };
        }
        return "both given";
      },
    });
    const generate = (input: ModelInput) =>
      input.messages.at(-1)?.role === "tool"
        ? { text: "over" }
        : { toolCalls: [{ name: "two_steps", args: {} }] };
    const engine = makeTestEngine({
      db: suite.database.db,
      log,
      createClient: () => createClientFromDriver(createInProcessDriver({ model: "steps", generate })),
      createToolkit: () => createToolkit({ builtins: false, extraTools: [twoSteps] }),
    });
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "go" });
    await engine.idle();
    const [first] = (await readRunState(suite.database.db, runId)).requests;
    await engine.answerRequest({ requestId: first!.id, answer: { ok: true }, actor: reviewer });
    await engine.idle();
    const parked = await readRunState(suite.database.db, runId);
    expect(parked.run).toMatchObject({ status: "pending", answeredCallsStarted: false });
    expect(parked.requests.map((r) => r.status)).toEqual(["answered", "open"]);

    await engine.cancelRun({ runId, actor: owner });
    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("cancelled");
    expect(state.requests.map((r) => r.status)).toEqual(["answered", "cancelled"]);
    await engine.stop();
  });
});
