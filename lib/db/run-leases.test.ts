import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimParkedRun } from "./run-leases";
import { seedParkedRuns } from "./testing/seed-parked-runs";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

describe.each(["sqlite", "postgres"] as const)("claimParkedRun on %s", (provider) => {
  let database: TestDatabase;
  let seeded: Awaited<ReturnType<typeof seedParkedRuns>>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    seeded = await seedParkedRuns({ db: database.db, count: 3, ready: 2 });
  });

  afterAll(async () => {
    await database?.drop();
  });

  test("takes a run none of whose requests is open, once, and writes it as the typed client reads it", async () => {
    const runId = seeded.readyRunIds[0]!;
    const before = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
    const leaseExpiresAt = new Date(Date.now() + 60_000);
    const claimed = await claimParkedRun({ db: database.db, runId, leaseOwner: "owner-a", leaseExpiresAt });
    expect(claimed).toMatchObject({
      id: runId,
      status: "running",
      leaseOwner: "owner-a",
      version: before.version + 1,
    });
    expect(claimed?.checkpoint).toEqual(before.checkpoint);
    const after = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(after).toMatchObject({ status: "running", leaseOwner: "owner-a", version: before.version + 1 });
    expect(after.leaseExpiresAt?.getTime()).toBe(leaseExpiresAt.getTime());
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    // A second caller finds it running and takes nothing.
    expect(
      await claimParkedRun({ db: database.db, runId, leaseOwner: "owner-b", leaseExpiresAt }),
    ).toBeNull();
    expect((await database.db.run.findUniqueOrThrow({ where: { id: runId } })).leaseOwner).toBe("owner-a");
  });

  test("leaves a run waiting while a request of it is open, even when its count says none is", async () => {
    const runId = seeded.readyRunIds[1]!;
    await database.db.request.updateMany({ where: { runId }, data: { status: "open" } });
    const leaseExpiresAt = new Date(Date.now() + 60_000);
    expect(
      await claimParkedRun({ db: database.db, runId, leaseOwner: "owner-a", leaseExpiresAt }),
    ).toBeNull();
    const waiting = await database.db.run.findFirstOrThrow({ where: { status: "pending", openRequests: 1 } });
    expect(
      await claimParkedRun({ db: database.db, runId: waiting.id, leaseOwner: "owner-a", leaseExpiresAt }),
    ).toBeNull();
    expect(await database.db.run.count({ where: { status: "running" } })).toBe(1);
  });
});
