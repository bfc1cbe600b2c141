import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { createMemoryEventBus } from "./event-bus";
import { readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { makeStuckCallEngine, startStuckCall, until } from "./testing/stuck-call";

// A Stop refused while an answered call runs is stored with the run (ADR 0101): whichever
// instance sweeps when it falls due ends the run, once, even when the process that took the
// Stop is gone; a call that comes back in time leaves nothing pending.

const never = new Promise<void>(() => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<TestProvider>(["sqlite", "postgres"])("a pending Stop on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const state = (runId: string) => readRunState(suite.database.db, runId);
  const cancellations = async (runId: string) => {
    const { events } = await state(runId);
    const audit = await suite.database.db.auditLog.findMany({
      where: { targetId: runId, action: "run.cancelled" },
    });
    return {
      audit: audit.map((entry) => entry.actorId),
      finished: events.filter((event) => event.type === "run_finished").map((event) => event.payload),
    };
  };

  it("outlives the process that took it: another instance ends the run when it falls due", async () => {
    const graceMs = 1_500;
    const taker = makeStuckCallEngine(suite, never, { stoppedCallGraceMs: graceMs });
    const { runId } = await startStuckCall(suite, taker);
    const { owner } = suite.people;
    const stoppedAt = Date.now();
    const refused = await rejection(taker.engine.cancelRun({ runId, actor: owner }));
    expect(isAppError(refused, "conflict:calls_started"), String(refused)).toBe(true);
    const pending = (await state(runId)).run;
    expect(pending.stopActorId).toBe(owner.id);
    expect(pending.stopDueAt!.getTime()).toBeGreaterThanOrEqual(stoppedAt + graceMs);
    expect(pending.stopDueAt!.getTime()).toBeLessThanOrEqual(Date.now() + graceMs);

    // The process that took the Stop goes away before it is due, and its timer with it.
    await taker.engine.stop();
    expect(Date.now() - stoppedAt).toBeLessThan(graceMs);
    expect((await state(runId)).run.status).toBe("running");

    const other = makeStuckCallEngine(suite, never, {
      stoppedCallGraceMs: graceMs,
      expiryIntervalMs: 50,
      recoveryIntervalMs: 50,
    });
    await other.engine.start();
    await until(async () => (await state(runId)).run.status === "cancelled", 10_000);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(graceMs);
    await other.engine.idle();
    const ended = await state(runId);
    expect(ended.run).toMatchObject({
      status: "cancelled",
      leaseOwner: null,
      answeredCallsStarted: true,
      stopDueAt: null,
      stopActorId: null,
    });
    expect(unbalancedReason(ended.messages)).toBeUndefined();
    expect(ended.messages.at(-1)).toMatchObject({
      role: "tool",
      content: expect.stringContaining("discarded"),
    });
    // In the name of whoever pressed Stop, not of the instance that ended it.
    expect(await cancellations(runId)).toEqual({
      audit: [owner.id],
      finished: [{ status: "cancelled", text: "" }],
    });
    await other.engine.stop();
  });

  it("is ended once by instances sweeping at the same time, at the first Stop's time", async () => {
    // Long enough that no timer fires during the test: the sweeps alone end the run.
    const graceMs = 60_000;
    // One bus, as instances share one: whichever ends the run, the one driving it hears so.
    const bus = createMemoryEventBus();
    const first = makeStuckCallEngine(suite, never, { stoppedCallGraceMs: graceMs, bus });
    const second = makeStuckCallEngine(suite, never, { stoppedCallGraceMs: graceMs, bus });
    const { runId } = await startStuckCall(suite, first);
    const { owner, admin } = suite.people;
    await rejection(first.engine.cancelRun({ runId, actor: owner }));
    const { stopDueAt } = (await state(runId)).run;
    await sleep(20);
    // Pressing Stop again, here or elsewhere, does not push the due time back.
    const again = await rejection(second.engine.cancelRun({ runId, actor: admin }));
    expect(isAppError(again, "conflict:calls_started"), String(again)).toBe(true);
    expect((await state(runId)).run).toMatchObject({ stopDueAt, stopActorId: owner.id });

    const sweepBoth = () =>
      Promise.all([
        first.engine.stopOverdueRuns(),
        second.engine.stopOverdueRuns(),
        first.engine.stopOverdueRuns(),
        second.engine.stopOverdueRuns(),
      ]);
    // Not due yet: the call still has its chance.
    expect(await sweepBoth()).toEqual([0, 0, 0, 0]);
    expect((await state(runId)).run.status).toBe("running");

    // The grace passes.
    await suite.database.db.run.update({
      where: { id: runId },
      data: { stopDueAt: new Date(Date.now() - 1) },
    });
    const ended = await sweepBoth();
    expect(ended.reduce((sum, count) => sum + count, 0)).toBe(1);
    await first.engine.idle();
    expect((await state(runId)).run.status).toBe("cancelled");
    expect(await cancellations(runId)).toEqual({
      audit: [owner.id],
      finished: [{ status: "cancelled", text: "" }],
    });
    await first.engine.stop();
    await second.engine.stop();
  });

  it("is cleared by a call that finishes in time, and then ends nothing", async () => {
    const graceMs = 300;
    let settle!: () => void;
    const quick = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const taker = makeStuckCallEngine(suite, quick, { stoppedCallGraceMs: graceMs });
    const { runId } = await startStuckCall(suite, taker);
    await rejection(taker.engine.cancelRun({ runId, actor: suite.people.owner }));
    expect((await state(runId)).run.stopDueAt).not.toBeNull();
    settle();
    await taker.engine.idle();
    expect((await state(runId)).run).toMatchObject({ status: "done", stopDueAt: null, stopActorId: null });

    const other = makeStuckCallEngine(suite, never, { expiryIntervalMs: 50 });
    await other.engine.start();
    await sleep(graceMs + 300);
    expect(await other.engine.stopOverdueRuns()).toBe(0);
    const after = await state(runId);
    expect(after.run.status).toBe("done");
    expect(after.events.filter((event) => event.type === "tool_result")).toHaveLength(1);
    expect(await cancellations(runId)).toEqual({
      audit: [],
      finished: [{ status: "done", text: expect.any(String) }],
    });
    await other.engine.stop();
    await taker.engine.stop();
  });
});
