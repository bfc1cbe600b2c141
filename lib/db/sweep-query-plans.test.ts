import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listDueEscalationSteps } from "./due-escalation-steps";
import { listDueStops } from "./pending-stops";
import { listDueRequests } from "./requests";
import { answerRequestTakingRun } from "./resolve-request";
import { claimParkedRun, listOrphanedRuns } from "./run-leases";
import { plansOfStatements } from "./testing/explain-query";
import { createLoggedDb } from "./testing/logged-db";
import { expectNoScan } from "./testing/plan-checks";
import { seedParkedRuns } from "./testing/seed-parked-runs";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

// The sweeps and claims the engine runs by the clock and on every answer must each read an index
// bounded by what they return, never every parked run or every open request. These tests ask the
// database how it plans exactly the SQL Prisma sends (PostgreSQL with sequential scans priced out,
// so that a plan needing one shows it even on a small table).

// Tables of settings an admin keeps by hand (a few rows, whatever the load): reading all of
// them is what an event's webhook fan-out means, and their size does not grow with runs.
const CONFIGURATION_TABLES = /"?WebhookEndpoint"?(\s|$)/;

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

  // Each statement's plans, one line a step (see `plansOfStatements`).
  const plansOf = async (work: () => Promise<unknown>) => {
    logged.queries.length = 0;
    await work();
    return plansOfStatements(database.db, provider, logged.queries);
  };

  test("the recovery sweep reads only the lapsed and the ready runs, from their indexes", async () => {
    const plans = await plansOf(async () => {
      const found = await listOrphanedRuns({ db: logged.db, now: new Date() });
      expect(found.orphans.map((run) => run.id).sort()).toEqual([...seeded.readyRunIds].sort());
      expect(found.anyRunning).toBe(false);
    });
    expect(plans).toHaveLength(2);
    const [readyPlans, lapsedPlans] = plans;
    // Lapsed leases are looked for among running runs only, as many as are being driven; parked
    // runs never enter that range. SQLite's index gives the order (NULL first) by itself;
    // PostgreSQL's puts NULL last, so it sorts the running runs.
    for (const lapsed of lapsedPlans!) {
      expectNoScan(provider, lapsed, { sorted: provider === "sqlite", except: CONFIGURATION_TABLES });
      expect(lapsed.join("\n")).toContain("Run_status_leaseExpiresAt_idx");
    }
    // The ready runs come from their own index range, in page order: parked runs still waiting
    // are never read.
    for (const ready of readyPlans!) {
      expectNoScan(provider, ready, { except: CONFIGURATION_TABLES });
      expect(ready.join("\n")).toMatch(
        provider === "sqlite"
          ? /SEARCH (main\.)?Run USING COVERING INDEX Run_status_openRequests_id_idx \(status=\? AND openRequests=\?\)/
          : /"Run_status_openRequests_id_idx"[^\n]*\n\s+Index Cond: \(\(status = ('pending'::text|\$\d+)\) AND \("openRequests" = (0|\$\d+)\)\)/,
      );
    }
  });

  test("the expiry sweep reads due requests from the (status, expiresAt) index", async () => {
    const plans = await plansOf(() => listDueRequests({ db: logged.db, now: new Date() }));
    expect(plans).toHaveLength(1);
    for (const plan of plans[0]!) {
      expectNoScan(provider, plan, { except: CONFIGURATION_TABLES });
      expect(plan.join("\n")).toContain("Request_status_expiresAt_idx");
    }
  });

  test("the overdue-Stop sweep reads due Stops from the stopDueAt index", async () => {
    const plans = await plansOf(() => listDueStops({ db: logged.db, now: new Date() }));
    expect(plans).toHaveLength(1);
    for (const plan of plans[0]!) {
      expectNoScan(provider, plan, { except: CONFIGURATION_TABLES });
      expect(plan.join("\n")).toContain("Run_stopDueAt_idx");
    }
  });

  test("the escalation sweep reads unfired due steps from the (firedAt, dueAt) index", async () => {
    const plans = await plansOf(() => listDueEscalationSteps({ db: logged.db, now: new Date() }));
    // The first statement reads the steps; Prisma reads their requests by id after it.
    expect(plans.length).toBeGreaterThanOrEqual(1);
    for (const plan of plans[0]!) {
      expectNoScan(provider, plan, { except: CONFIGURATION_TABLES });
      expect(plan.join("\n")).toContain("RequestEscalationStep_firedAt_dueAt_idx");
    }
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
    for (const plan of plans[0]!) {
      expectNoScan(provider, plan, { except: CONFIGURATION_TABLES });
      expect(plan.join("\n")).toContain("Request_runId_status_idx");
    }
  });

  test("answering a request touches its run and its own rows by key", async () => {
    const plans = await plansOf(async () => {
      const claim = await answerRequestTakingRun({
        db: logged.db,
        id: seeded.waitingRequestId,
        resolution: { status: "answered", answer: { id: "ask-0", ok: true }, actorId: seeded.userId },
        // As the engine answers: the last answer takes its run back, so the run's other open
        // requests are looked for too.
        lease: { leaseOwner: "plans", leaseExpiresAt: new Date(Date.now() + 60_000) },
      });
      expect(claim.claimed && claim.takenRun?.status).toBe("running");
    });
    // SQLite: the run's claim, the request's, the answer, the audit entry, the event; on
    // PostgreSQL all of it is one statement (ADR 0051) after the read of the request's run.
    expect(plans.length).toBeGreaterThanOrEqual(provider === "sqlite" ? 5 : 2);
    for (const plan of plans.flat()) {
      // SQLite's `SCAN o` is the one row the run's count-off computes "free" in, no table.
      expectNoScan(provider, plan, { except: new RegExp(`${CONFIGURATION_TABLES.source}|^SCAN o$`) });
      // Only keys: no range of every open request (an index on status alone would be one).
      expect(indexesOn(plan, "Request"), plan.join("\n")).toSatisfy((used: string[]) =>
        used.every((index) => REQUEST_KEYS.test(index)),
      );
    }
  });
});

// The request's own key, and its run's open requests by run.
const REQUEST_KEYS =
  /^(Request_pkey|sqlite_autoindex_Request_1|Request_runId_status_idx|Request_runId_requestId_key)$/;

/** The indexes of `table` a plan reads through, by name (each is named after its table). */
function indexesOn(plan: string[], table: string): string[] {
  const pattern = new RegExp(
    `(?:USING (?:COVERING )?INDEX |Scan using "?|Bitmap Index Scan on "?)((?:sqlite_autoindex_)?${table}_\\w+)`,
  );
  return plan.flatMap((line) => pattern.exec(line)?.slice(1, 2) ?? []);
}
