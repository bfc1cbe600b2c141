import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimRequest } from "./claim-request";
import { listDueRequests } from "./requests";
import { claimParkedRun, listOrphanedRuns } from "./run-leases";
import { explainQuery } from "./testing/explain-query";
import { createLoggedDb, type LoggedQuery } from "./testing/logged-db";
import { seedParkedRuns } from "./testing/seed-parked-runs";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// The sweeps and claims the engine runs by the clock and on every answer must each read an index
// bounded by what they return, never every parked run or every open request. These tests ask the
// database how it plans exactly the SQL Prisma sends (PostgreSQL with sequential scans priced out,
// so that a plan needing one shows it even on a small table).

const statements = (queries: LoggedQuery[]) =>
  queries.filter((query) => !/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(query.sql.trim()));

// Tables of settings an admin keeps by hand (a few rows, whatever the load): reading all of
// them is what an event's webhook fan-out means, and their size does not grow with runs.
const CONFIGURATION_TABLES = /"?WebhookEndpoint"?(\s|$)/;

/** No full scan; `sorted` also allows no sort of what was read (the index gives the order). */
function expectNoScan(provider: TestProvider, plan: string[], { sorted = true } = {}) {
  for (const line of plan) {
    if (CONFIGURATION_TABLES.test(line)) continue;
    if (provider === "sqlite") {
      expect(line, plan.join("\n")).not.toMatch(/^SCAN /);
      if (sorted) expect(line, plan.join("\n")).not.toMatch(/TEMP B-TREE/);
    } else {
      expect(line, plan.join("\n")).not.toMatch(/Seq Scan/);
    }
  }
}

describe.each(["sqlite", "postgres"] as const)("query plans of the sweeps and claims (%s)", (provider) => {
  let database: TestDatabase;
  let logged: ReturnType<typeof createLoggedDb>;
  let seeded: Awaited<ReturnType<typeof seedParkedRuns>>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    seeded = await seedParkedRuns({ db: database.db, count: 500, ready: 3 });
    // Statistics as a live database has them, so the planner knows most runs are waiting.
    await database.db.$executeRawUnsafe("ANALYZE");
    logged = createLoggedDb({ url: database.url, provider });
  });

  afterAll(async () => {
    await logged?.db.$disconnect();
    await database?.drop();
  });

  const plansOf = async (work: () => Promise<unknown>) => {
    logged.queries.length = 0;
    await work();
    const plans = [];
    for (const query of statements(logged.queries)) {
      plans.push({ sql: query.sql, plan: await explainQuery(database.db, provider, query) });
    }
    return plans;
  };

  test("the recovery sweep reads only the lapsed and the ready runs, from their indexes", async () => {
    const plans = await plansOf(async () => {
      const found = await listOrphanedRuns({ db: logged.db, now: new Date() });
      expect(found.orphans.map((run) => run.id).sort()).toEqual([...seeded.readyRunIds].sort());
      expect(found.anyRunning).toBe(false);
    });
    expect(plans).toHaveLength(2);
    const [ready, lapsed] = plans.map(({ plan }) => plan);
    // Lapsed leases are looked for among running runs only, as many as are being driven, and
    // sorted; parked runs never enter that range.
    expectNoScan(provider, lapsed!, { sorted: false });
    expect(lapsed!.join("\n")).toContain("Run_status_leaseExpiresAt_idx");
    // The ready runs come from their own index range, in page order: parked runs still waiting
    // are never read.
    expectNoScan(provider, ready!);
    expect(ready!.join("\n")).toMatch(
      provider === "sqlite"
        ? /SEARCH (main\.)?Run USING COVERING INDEX Run_status_openRequests_id_idx \(status=\? AND openRequests=\?\)/
        : /"Run_status_openRequests_id_idx"[^\n]*\n\s+Index Cond: \(\(status = 'pending'::text\) AND \("openRequests" = 0\)\)/,
    );
  });

  test("the expiry sweep reads due requests from the (status, expiresAt) index", async () => {
    const plans = await plansOf(() => listDueRequests({ db: logged.db, now: new Date() }));
    expect(plans).toHaveLength(1);
    expectNoScan(provider, plans[0]!.plan);
    expect(plans[0]!.plan.join("\n")).toContain("Request_status_expiresAt_idx");
  });

  test("claiming a parked run looks its open requests up by run", async () => {
    const plans = await plansOf(async () => {
      const claimed = await claimParkedRun({
        db: logged.db,
        runId: seeded.readyRunIds[0]!,
        leaseOwner: "plans",
        leaseExpiresAt: new Date(Date.now() + 60_000),
      });
      expect(claimed?.status).toBe("running");
    });
    expect(plans).toHaveLength(1);
    expectNoScan(provider, plans[0]!.plan);
    expect(plans[0]!.plan.join("\n")).toContain("Request_runId_status_idx");
  });

  test("answering a request touches its run and its own rows by key", async () => {
    const plans = await plansOf(async () => {
      const claim = await claimRequest({
        db: logged.db,
        id: seeded.waitingRequestId,
        resolution: { status: "answered", answer: { id: "ask-0", ok: true }, actorId: seeded.userId },
      });
      expect(claim.claimed).toBe(true);
    });
    // SQLite: the run's count, the request's claim, the answer, the audit entry, the event; on
    // PostgreSQL the first four are one statement (ADR 0050), then the event's.
    expect(plans.length).toBeGreaterThanOrEqual(provider === "sqlite" ? 5 : 2);
    for (const { plan } of plans) expectNoScan(provider, plan);
  });
});
