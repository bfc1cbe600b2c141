import { randomUUID } from "node:crypto";
import { createToolkit, defineTool } from "toolnexus";
import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { createMemoryEventBus, type EventBus } from "./event-bus";
import { createPostgresEventBus } from "./postgres-event-bus";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { memoryLog } from "./testing/scripted-agent";

// Two app instances: A drives a run whose tool is working, B receives the Stop. The tool must
// hear of it through ctx.signal at once, not when A next writes (which a long tool never does).

describe.each<TestProvider>(["sqlite", "postgres"])(
  "a cancel taken by another instance on %s",
  (provider) => {
    const suite = useEngineSuite(provider);

    it("aborts the owner's tool through ctx.signal at once", { timeout: 60_000 }, async () => {
      const threadId = await suite.freshThread();
      const buses: EventBus[] =
        provider === "postgres"
          ? await Promise.all(
              ["a", "b"].map((name) =>
                createPostgresEventBus({
                  connectionString: suite.database.url,
                  instanceId: `${name}-${randomUUID()}`,
                }),
              ),
            )
          : [createMemoryEventBus()];
      const [busA, busB = busA] = buses as [EventBus, EventBus?];
      let started!: () => void;
      const working = new Promise<void>((resolve) => {
        started = resolve;
      });
      let aborted: number | null = null;
      const slow = defineTool({
        name: "slow",
        description: "Works until it is told to stop, or for 20 s.",
        run: (_args, ctx) =>
          new Promise<string>((resolve) => {
            started();
            const timer = setTimeout(() => resolve("finished anyway"), 20_000);
            ctx?.signal?.addEventListener("abort", () => {
              aborted = Date.now();
              clearTimeout(timer);
              resolve("stopped");
            });
          }),
      });
      const log = memoryLog();
      const owner = makeTestEngine({
        db: suite.database.db,
        log,
        bus: busA,
        createToolkit: () => createToolkit({ builtins: false, extraTools: [slow] }),
      });
      const other = makeTestEngine({
        db: provider === "postgres" ? suite.database.connect() : suite.database.db,
        log,
        bus: busB,
      });
      const { runId } = await owner.startRun({
        threadId,
        userId: suite.people.owner.id,
        message: "block it",
      });
      await working;

      const cancelledAt = Date.now();
      await other.cancelRun({ runId, actor: suite.people.admin });
      for (let i = 0; i < 100 && aborted === null; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(aborted, "the tool never heard of the cancel").not.toBeNull();
      expect(aborted! - cancelledAt).toBeLessThan(1_000);
      await owner.idle();
      const state = await readRunState(suite.database.db, runId);
      expect(state.run.status).toBe("cancelled");
      // Nothing the aborted segment still had queued landed after the run's final event.
      expect(state.events.at(-1)).toMatchObject({ type: "run_finished", payload: { status: "cancelled" } });
      await Promise.all([owner.stop(), other.stop()]);
      await Promise.all(buses.map((bus) => bus.close()));
    });
  },
);
