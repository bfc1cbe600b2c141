import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { memoryLog } from "./testing/scripted-agent";

// Stop and an approval of the same parked run race. Whichever the database takes first wins,
// and only the winner is told so: an approval reported as accepted must be the one the run
// resumes with, and a Stop reported as done must be the reason the approval was refused.

describe.each<TestProvider>(["sqlite", "postgres"])("Stop racing approvals on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("tells exactly one of them it succeeded, and the outcome matches", { timeout: 90_000 }, async () => {
    const outcomes = { stop: 0, answer: 0 };
    for (let round = 0; round < 6; round += 1) {
      const threadId = await suite.freshThread();
      const { owner, reviewer } = suite.people;
      const log = memoryLog();
      // Two engines, as two app instances would take the two actions; on PostgreSQL each has a
      // connection pool of its own (SQLite serves one process, through one client).
      const second = provider === "postgres" ? suite.database.connect() : suite.database.db;
      const engines = [makeTestEngine({ db: suite.database.db, log }), makeTestEngine({ db: second, log })];
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
      const settled = await Promise.allSettled([stop, ...approvals]);
      await Promise.all(engines.map((engine) => engine.idle()));
      const won = settled.filter((result) => result.status === "fulfilled").length;
      for (const result of settled) {
        if (result.status === "rejected") {
          // A Stop that reads the run only after the winning approval has let it finish (its
          // connection can be that late) is refused as too late, which is still one winner.
          const refusedWithConflict = [
            "conflict:answer",
            "conflict:request_closed",
            "conflict:run_changed",
            "conflict:run_finished",
          ].some((code) => isAppError(result.reason, code as never));
          expect(refusedWithConflict, String(result.reason)).toBe(true);
        }
      }
      const state = await readRunState(suite.database.db, runId);
      const retries = log.entries.filter((entry) => entry.tool === "approve_then_block" && entry.answer);
      const answered = settled.slice(1).filter((result) => result.status === "fulfilled").length;
      expect(answered).toBeLessThanOrEqual(1);
      if (answered === 1 && settled[0]!.status === "fulfilled") {
        // The Stop read the run only after the winning approval had resumed it, so it stopped a
        // running run, before or after its tool ran again: no race, and the answer stands.
        outcomes.answer += 1;
        expect(state.run.status).toBe("cancelled");
        expect(state.requests[0]!.status).toBe("answered");
        expect(retries.length).toBeLessThanOrEqual(1);
        await Promise.all(engines.map((engine) => engine.stop()));
        continue;
      }
      expect(won).toBe(1);
      if (settled[0]!.status === "fulfilled") {
        outcomes.stop += 1;
        expect(state.run.status).toBe("cancelled");
        expect(state.requests[0]!.status).toBe("cancelled");
        expect(retries).toHaveLength(0);
      } else {
        outcomes.answer += 1;
        expect(state.run.status).toBe("done");
        expect(state.requests[0]!.status).toBe("answered");
        expect(retries).toHaveLength(1);
      }
      await Promise.all(engines.map((engine) => engine.stop()));
    }
    // Both outcomes are legitimate; the point is that each round had exactly one winner.
    expect(outcomes.stop + outcomes.answer).toBe(6);
  });
});
