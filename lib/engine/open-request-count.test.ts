import { describe, expect, it } from "vitest";
import { resolveRequest } from "@/lib/db/resolve-request";
import { claimParkedRun, listOrphanedRuns } from "@/lib/db/run-leases";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

// The recovery sweep and the parked-run claim trust the run's count of open requests; every way a
// request opens or closes must keep it equal to the rows themselves.

describe.each<TestProvider>(["sqlite", "postgres"])("a run's open-request count on %s", (provider) => {
  const suite = useEngineSuite(provider);

  const openRows = async (runId: string) =>
    suite.database.db.request.count({ where: { runId, status: "open" } });
  const countOf = async (runId: string) => (await readRunState(suite.database.db, runId)).run.openRequests;
  // Every answer carries its request's tool, however the request closed (the audit filters on it).
  const expectAnswersCarryTheirTools = async (runId: string) => {
    const requests = await suite.database.db.request.findMany({
      where: { runId },
      select: { toolName: true, answer: { select: { toolName: true } } },
    });
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.toolName).not.toBe("");
      expect(request.answer?.toolName).toBe(request.toolName);
    }
  };
  const readyIds = async () =>
    (await listOrphanedRuns({ db: suite.database.db, now: new Date() })).orphans.map((run) => run.id);

  it("follows parking, an answer, a refused second answer and an expiry, and the run goes on at zero", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair please" });
    const [approval, input] = (await readRunState(suite.database.db, runId)).requests;
    expect(await countOf(runId)).toBe(2);
    expect(await readyIds()).not.toContain(runId);

    await engine.answerRequest({
      requestId: input!.id,
      answer: { ok: true, data: { name: "Bo" } },
      actor: suite.people.owner,
    });
    await engine.idle();
    expect(await countOf(runId)).toBe(1);
    const again = await rejection(
      engine.answerRequest({
        requestId: input!.id,
        answer: { ok: true, data: { name: "Al" } },
        actor: suite.people.owner,
      }),
    );
    expect(isAppError(again, "conflict:answer")).toBe(true);
    // A claim that loses the race for the request leaves the run's count as it was.
    const lost = await resolveRequest({
      db: suite.database.db,
      id: input!.id,
      resolution: {
        status: "answered",
        answer: { id: input!.requestId, ok: true },
        actorId: suite.people.owner.id,
      },
    });
    expect(lost.claimed).toBe(false);
    expect(await countOf(runId)).toBe(1);
    expect(await readyIds()).not.toContain(runId);
    const early = await claimParkedRun({
      db: suite.database.db,
      runId,
      leaseOwner: "early",
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
    expect(early).toBeNull();

    await suite.database.db.request.update({
      where: { id: approval!.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await engine.expireDueRequests()).toBe(1);
    await engine.idle();
    const after = await readRunState(suite.database.db, runId);
    expect(after.run.openRequests).toBe(0);
    expect(after.run.status).not.toBe("pending");
    expect(await openRows(runId)).toBe(0);
    await expectAnswersCarryTheirTools(runId);
    await engine.stop();
  });

  it("drops to zero when a cancel closes every open request", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair to cancel" });
    expect(await countOf(runId)).toBe(await openRows(runId));
    expect(await countOf(runId)).toBe(2);
    await engine.cancelRun({ runId, actor: suite.people.owner });
    expect(await countOf(runId)).toBe(0);
    expect(await openRows(runId)).toBe(0);
    await expectAnswersCarryTheirTools(runId);
    await engine.stop();
  });
});
