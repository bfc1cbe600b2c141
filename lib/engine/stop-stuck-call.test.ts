import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { makeStuckCallEngine, startStuckCall as startStuckCallIn, until } from "./testing/stuck-call";

// A Stop refused because an answered call has started (ADR 0055) still ends the run once the
// call has run past the Stop's grace (ADR 0101): a call that ignores its signal and never
// settles cannot keep a run alive for ever, and what it returns after the grace is discarded.

const graceMs = 300;

describe.each<TestProvider>(["sqlite", "postgres"])(
  "a Stop during a stuck answered call on %s",
  (provider) => {
    const suite = useEngineSuite(provider);

    /** Parks on an approval, approves it, and returns once the approved call is running. */
    async function startStuckCall(settle: Promise<void>) {
      const stuck = makeStuckCallEngine(suite, settle, { stoppedCallGraceMs: graceMs });
      return { engine: stuck.engine, ...(await startStuckCallIn(suite, stuck)) };
    }

    it("ends the run once the grace has passed, as a Stop does, and says the call's result was discarded", async () => {
      const { engine, runId, requestId } = await startStuckCall(new Promise<void>(() => {}));
      const { owner } = suite.people;
      const stoppedAt = Date.now();
      const refused = await rejection(engine.cancelRun({ runId, actor: owner }));
      expect(isAppError(refused, "conflict:calls_started"), String(refused)).toBe(true);
      // Within the grace the call still has its chance.
      expect((await readRunState(suite.database.db, runId)).run.status).toBe("running");

      await until(async () => (await readRunState(suite.database.db, runId)).run.status === "cancelled");
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(graceMs);
      // The segment is over, so waiting for the engine's work ends although the call never does.
      await engine.idle();
      const state = await readRunState(suite.database.db, runId);
      expect(state.run).toMatchObject({ status: "cancelled", leaseOwner: null, leaseExpiresAt: null });
      expect(unbalancedReason(state.messages)).toBeUndefined();
      expect(state.messages.at(-1)).toMatchObject({
        role: "tool",
        name: "approve_then_block",
        isError: true,
        content: expect.stringContaining("discarded"),
      });
      expect(state.events.at(-1)).toMatchObject({ type: "run_finished", payload: { status: "cancelled" } });
      expect(state.events.filter((event) => event.type === "tool_result")).toEqual([]);
      const audit = await suite.database.db.auditLog.findMany({ where: { targetId: runId } });
      expect(audit.map((entry) => [entry.action, entry.actorId])).toEqual([["run.cancelled", owner.id]]);
      // The approved call did start: its approver is not told it never ran.
      expect(await engine.readRequest({ requestId, actor: suite.people.reviewer })).toMatchObject({
        status: "answered",
        runStoppedFirst: false,
      });
      // The thread is free for the next message.
      await engine.startRun({ threadId: state.run.threadId, userId: owner.id, message: "hello" });
      await engine.idle();
      await engine.stop();
    });

    it("discards what the call returns after the grace: no write, no second ending", async () => {
      let settle!: () => void;
      const late = new Promise<void>((resolve) => {
        settle = resolve;
      });
      const { engine, runId } = await startStuckCall(late);
      await rejection(engine.cancelRun({ runId, actor: suite.people.admin }));
      await until(async () => (await readRunState(suite.database.db, runId)).run.status === "cancelled");
      await engine.idle();
      const stopped = await readRunState(suite.database.db, runId);

      settle();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await engine.idle();
      const after = await readRunState(suite.database.db, runId);
      expect(after.run).toMatchObject({
        status: "cancelled",
        version: stopped.run.version,
        leaseOwner: null,
      });
      expect(after.events.map((event) => event.seq)).toEqual(stopped.events.map((event) => event.seq));
      expect(after.messages).toEqual(stopped.messages);
      await engine.stop();
    });

    it("changes nothing when the call finishes within the grace", async () => {
      let settle!: () => void;
      const quick = new Promise<void>((resolve) => {
        settle = resolve;
      });
      const { engine, runId } = await startStuckCall(quick);
      await rejection(engine.cancelRun({ runId, actor: suite.people.owner }));
      settle();
      await engine.idle();
      await new Promise((resolve) => setTimeout(resolve, graceMs + 200));
      const state = await readRunState(suite.database.db, runId);
      expect(state.run.status).toBe("done");
      expect(state.events.filter((event) => event.type === "tool_result")).toHaveLength(1);
      await engine.stop();
    });
  },
);
