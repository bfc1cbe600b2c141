import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { makeTestEngine, readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { createScriptedToolkit, memoryLog } from "./testing/scripted-agent";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("engine on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const { freshThread } = suite;

  it("cancels a parked run for its owner: open requests become cancelled and the run ends", async () => {
    const { engine, threadId, runId } = await startRunOnFreshThread(suite, { message: "pair to cancel" });
    const refused = await rejection(engine.cancelRun({ runId, actor: suite.people.reviewer }));
    expect(isAppError(refused, "forbidden:run")).toBe(true);
    await engine.cancelRun({ runId, actor: suite.people.owner });
    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("cancelled");
    expect(state.requests.map((r) => [r.status, r.answer?.reason])).toEqual([
      ["cancelled", "cancelled"],
      ["cancelled", "cancelled"],
    ]);
    expect(unbalancedReason(state.messages)).toBeUndefined();
    const late = await rejection(
      engine.answerRequest({
        requestId: state.requests[1]!.id,
        answer: { ok: true, data: { name: "Al" } },
        actor: suite.people.owner,
      }),
    );
    expect(isAppError(late, "conflict:run_stopped")).toBe(true);
    expect(
      isAppError(
        await rejection(engine.cancelRun({ runId, actor: suite.people.admin })),
        "conflict:run_finished",
      ),
    ).toBe(true);
    // The thread is free again, and the next run starts from a balanced transcript.
    await engine.startRun({ threadId, userId: suite.people.owner.id, message: "hello" });
    await engine.idle();
    expect(unbalancedReason((await readRunState(suite.database.db, runId)).messages)).toBeUndefined();
    await engine.stop();
  });

  it("cancels a run while its tool is still working, and stops driving it", async () => {
    const threadId = await freshThread();
    const log = memoryLog();
    let started!: () => void;
    const working = new Promise<void>((resolve) => {
      started = resolve;
    });
    const engine = makeTestEngine({
      db: suite.database.db,
      log,
      createToolkit: () =>
        createScriptedToolkit({
          log,
          block: () => {
            started();
            return new Promise<void>(() => {});
          },
        }),
    });
    const { runId } = await engine.startRun({
      threadId,
      userId: suite.people.owner.id,
      message: "block forever",
    });
    await working;
    await engine.cancelRun({ runId, actor: suite.people.admin });
    await engine.idle();
    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("cancelled");
    expect(state.run.leaseOwner).toBeNull();
    expect(state.messages.at(-1)).toMatchObject({ role: "tool", name: "slow", isError: true });
    expect(unbalancedReason(state.messages)).toBeUndefined();
    expect(state.events.at(-1)).toMatchObject({ type: "run_finished", payload: { status: "cancelled" } });
    await engine.stop();
  });
});
