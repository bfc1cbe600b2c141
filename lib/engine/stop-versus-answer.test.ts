import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { createScriptedToolkit, memoryLog } from "./testing/scripted-agent";

// Stop and an approval of the same parked run race, here from two engines of one process (see
// stop-race-processes.test.ts for two processes). Whichever the database takes first wins, and
// only the winner is told so (ADR 0055): a Stop reported as done means the approved call never
// ran and every approval was refused as stopped; an approval reported as accepted means its call
// ran exactly once and the Stop was refused because the call had started.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.each<TestProvider>(["sqlite", "postgres"])("Stop racing approvals on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("tells exactly one of them it succeeded, and the outcome matches", { timeout: 90_000 }, async () => {
    const outcomes = { stop: 0, answer: 0 };
    for (let round = 0; round < 6; round += 1) {
      const threadId = await suite.freshThread();
      const { owner, reviewer } = suite.people;
      const log = memoryLog();
      // Two engines, as two app instances would take the two actions; on PostgreSQL each has a
      // connection pool of its own (SQLite serves one process, through one client). The approved
      // call works a while, so a Stop that lands after an approval finds it still running.
      const second = provider === "postgres" ? suite.database.connect() : suite.database.db;
      const createToolkit = () => createScriptedToolkit({ log, block: () => sleep(600) });
      const engines = [
        makeTestEngine({ db: suite.database.db, log, createToolkit }),
        makeTestEngine({ db: second, log, createToolkit }),
      ];
      const { runId } = await engines[0]!.startRun({
        threadId,
        userId: owner.id,
        message: "block-after-answer please",
      });
      await engines[0]!.idle();
      const [request] = (await readRunState(suite.database.db, runId)).requests;
      expect(request?.status).toBe("open");

      const approvals = Array.from({ length: 10 }, (_, i) =>
        engines[i % 2]!.answerRequest({
          requestId: request!.id,
          answer: { ok: true, data: { note: `go ${i}` } },
          actor: reviewer,
        }),
      );
      const stop = engines[round % 2]!.cancelRun({ runId, actor: owner });
      const [stopped, ...answered] = await Promise.allSettled([stop, ...approvals]);
      await Promise.all(engines.map((engine) => engine.idle()));
      const state = await readRunState(suite.database.db, runId);
      const retries = log.entries.filter((entry) => entry.tool === "approve_then_block" && entry.answer);
      const results = state.events.filter((event) => event.type === "tool_result");
      const accepted = answered.filter((result) => result.status === "fulfilled");
      const refusedWith = (code: "conflict:run_stopped" | "conflict:answer") =>
        answered.every((result) => result.status === "fulfilled" || isAppError(result.reason, code));
      if (stopped!.status === "fulfilled") {
        outcomes.stop += 1;
        expect(accepted).toHaveLength(0);
        expect(refusedWith("conflict:run_stopped")).toBe(true);
        expect(state.run.status).toBe("cancelled");
        expect(state.requests[0]!.status).toBe("cancelled");
        expect(retries).toHaveLength(0);
        expect(results).toHaveLength(0);
      } else {
        outcomes.answer += 1;
        // Refused because the call had started (or, reaching the database only after the run had
        // finished, because it had ended).
        const refused = ["conflict:calls_started", "conflict:run_finished"] as const;
        expect(
          refused.some((code) => isAppError(stopped!.reason, code)),
          String(stopped!.reason),
        ).toBe(true);
        expect(accepted).toHaveLength(1);
        expect(refusedWith("conflict:answer")).toBe(true);
        expect(state.run.status).toBe("done");
        expect(state.requests[0]!.status).toBe("answered");
        expect(retries).toHaveLength(1);
        expect(results).toHaveLength(1);
      }
      await Promise.all(engines.map((engine) => engine.stop()));
    }
    // Both outcomes are legitimate; the point is that each round told exactly one story.
    expect(outcomes.stop + outcomes.answer).toBe(6);
  });
});
