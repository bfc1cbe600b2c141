import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listDueRequests } from "./requests";
import { claimParkedRun, listOrphanedRuns } from "./run-leases";
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

describe.each(["sqlite", "postgres"] as const)("the start-up sweeps on %s", (provider) => {
  let database: TestDatabase;
  let seeded: Awaited<ReturnType<typeof seedParkedRuns>>;
  const now = new Date();
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    seeded = await seedParkedRuns({ db: database.db, count: 3, ready: 2 });
  });

  afterAll(async () => {
    await database?.drop();
  });

  test("find the ready runs by id, then the running ones whose lease lapsed, a missing lease first", async () => {
    const { db } = database;
    const [noLease, lapsed, live] = (
      await db.run.findMany({ where: { openRequests: 1 }, orderBy: { id: "asc" } })
    ).map((run) => run.id);
    await db.run.update({ where: { id: noLease! }, data: { status: "running", leaseExpiresAt: null } });
    await db.run.update({ where: { id: lapsed! }, data: { status: "running", leaseExpiresAt: at(-1) } });
    await db.run.update({ where: { id: live! }, data: { status: "running", leaseExpiresAt: at(5) } });
    const ready = [...seeded.readyRunIds].sort();

    const found = await listOrphanedRuns({ db, now });
    expect(found.orphans.map((run) => run.id)).toEqual([...ready, noLease, lapsed]);
    expect(found.orphans.map((run) => run.status)).toEqual(["pending", "pending", "running", "running"]);
    expect(found.anyRunning).toBe(true);
    // One place left after the ready runs: the run without a lease comes first.
    expect((await listOrphanedRuns({ db, now, limit: 3 })).orphans.map((run) => run.id)).toEqual([
      ...ready,
      noLease,
    ]);
  });

  test("find the open requests whose time is up, the earliest first", async () => {
    const { db } = database;
    const open = await db.request.findMany({ where: { status: "open" }, orderBy: { id: "asc" } });
    await db.request.update({ where: { id: open[0]!.id }, data: { expiresAt: at(-1) } });
    await db.request.update({ where: { id: open[1]!.id }, data: { expiresAt: at(-2) } });
    await db.request.update({ where: { id: open[2]!.id }, data: { expiresAt: at(1) } });
    await db.request.updateMany({ where: { status: "answered" }, data: { expiresAt: at(-3) } });

    const due = await listDueRequests({ db, now });
    expect(due.map((request) => request.id)).toEqual([open[1]!.id, open[0]!.id]);
    expect(due[0]).toEqual({
      id: open[1]!.id,
      runId: open[1]!.runId,
      threadId: open[1]!.threadId,
      toolName: "ask",
    });
    expect((await listDueRequests({ db, now: at(2) })).map((request) => request.id)).toEqual([
      open[1]!.id,
      open[0]!.id,
      open[2]!.id,
    ]);
    expect(await listDueRequests({ db, now, limit: 1 })).toHaveLength(1);
  });
});
