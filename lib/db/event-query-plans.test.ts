import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  appendRunEvents,
  getDeadSegmentStartByRun,
  getFirstEventSeqByRun,
  listSupersededMarkersByRun,
} from "./events";
import { plansOfStatements } from "./testing/explain-query";
import { createLoggedDb } from "./testing/logged-db";
import { expectNoScan } from "./testing/plan-checks";
import { createHeldRun } from "./testing/seed-people";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

// What a chat viewer reads as it opens (a run's first seq, its superseded markers) and what a
// takeover reads (where the dead segment began) must seek the run's own events, never read every
// event of a run: a long reply is thousands of text deltas. No statistics, as a fresh database has
// none (SQLite never gathers them by itself).

describe.each(["sqlite", "postgres"] as const)("query plans of a run's events (%s)", (provider) => {
  let database: TestDatabase;
  let logged: ReturnType<typeof createLoggedDb>;
  let runId: string;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const held = await createHeldRun(database.db, "holder");
    runId = held.runId;
    const text = Array.from({ length: 50 }, (_, i) => ({ type: "text" as const, delta: `part ${i} ` }));
    await appendRunEvents({
      db: database.db,
      threadId: held.threadId,
      runId,
      bodies: [...text, { type: "superseded", afterSeq: 3 }, ...text],
      onlyWhileHeldBy: "holder",
    });
    logged = createLoggedDb({ url: database.url, provider });
  });

  afterAll(async () => {
    await logged?.db.$disconnect();
    await database?.drop();
  });

  // Each statement's plans, the generic one too on PostgreSQL (see `plansOfStatements`).
  const plansOf = async (work: () => Promise<unknown>) => {
    logged.queries.length = 0;
    await work();
    return (await plansOfStatements(database.db, provider, logged.queries)).flat();
  };

  const index = (name: string) =>
    provider === "sqlite" ? new RegExp(`USING (COVERING )?INDEX ${name}\\b`) : new RegExp(`using "${name}"`);

  test("a run's first seq is the first entry of its (runId, seq) range", async () => {
    const plans = await plansOf(async () => {
      expect(await getFirstEventSeqByRun({ db: logged.db, runId })).toBeGreaterThan(0);
    });
    expect(plans).toHaveLength(provider === "postgres" ? 2 : 1);
    for (const plan of plans) {
      expectNoScan(provider, plan);
      expect(plan.join("\n")).toMatch(index("Event_runId_seq_idx"));
    }
  });

  test("a run's superseded markers are sought by (runId, type), in seq order", async () => {
    const plans = await plansOf(async () => {
      expect(await listSupersededMarkersByRun({ db: logged.db, runId })).toHaveLength(1);
    });
    for (const plan of plans) {
      expectNoScan(provider, plan);
      expect(plan.join("\n")).toMatch(index("Event_runId_type_seq_idx"));
    }
  });

  test("a takeover finds the dead segment's start from the run's last park and what follows it", async () => {
    const plans = await plansOf(async () => {
      expect(await getDeadSegmentStartByRun({ db: logged.db, runId, savedEventSeq: 10 })).toBe(10);
    });
    expect(plans).toHaveLength(provider === "postgres" ? 4 : 2);
    for (const plan of plans) expectNoScan(provider, plan);
    expect(plans[0]!.join("\n")).toMatch(index("Event_runId_type_seq_idx"));
  });
});
