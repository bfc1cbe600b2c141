import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  countMcpWaitingCalls,
  releaseMcpWaitingSlot,
  renewMcpWaitingSlots,
  takeMcpWaitingSlot,
} from "./mcp-waiting-calls";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// A token's waiting MCP calls counted across instances (ADR 0072), on both databases, with takes
// racing on separate connections as two app instances would.

describe.each<TestProvider>(["sqlite", "postgres"])("MCP waiting places on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const inAMinute = () => new Date(Date.now() + 60_000);

  it("gives exactly `limit` places to takes racing from two instances, and a released one again", async () => {
    const tokenId = randomUUID();
    // Two PostgreSQL pools. SQLite's instances are processes; two connections of one process
    // would wait on each other's write lock synchronously, so there they share one client.
    const instances = [
      { db: database.db, instanceId: "a" },
      { db: provider === "postgres" ? database.connect() : database.db, instanceId: "b" },
    ];
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const outcomes = await Promise.all(
      ids.map((id, i) => {
        const { db, instanceId } = instances[i % 2]!;
        return takeMcpWaitingSlot({ db, id, tokenId, instanceId, leaseUntil: inAMinute(), limit: 5 });
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === "taken")).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome.status === "full")).toContainEqual({
      status: "full",
      waiting: 5,
    });
    expect(await countMcpWaitingCalls({ db: database.db, tokenId })).toBe(5);

    const takenId = ids[outcomes.findIndex((outcome) => outcome.status === "taken")]!;
    await releaseMcpWaitingSlot({ db: database.db, id: takenId });
    const again = { db: database.db, tokenId, instanceId: "a", leaseUntil: inAMinute(), limit: 5 };
    expect(await takeMcpWaitingSlot({ ...again, id: randomUUID() })).toEqual({ status: "taken" });
    expect(await takeMcpWaitingSlot({ ...again, id: randomUUID() })).toMatchObject({ status: "full" });
    // Another token's places are its own.
    expect(await takeMcpWaitingSlot({ ...again, tokenId: randomUUID(), id: randomUUID() })).toEqual({
      status: "taken",
    });
  });

  it("stops counting the calls of an instance that no longer renews their leases", async () => {
    const tokenId = randomUUID();
    const { db } = database;
    const start = new Date();
    const lease = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const take = (instanceId: string, now: Date, leaseUntil: Date) =>
      takeMcpWaitingSlot({ db, id: randomUUID(), tokenId, instanceId, leaseUntil, limit: 2, now });
    expect(await take("dead", start, lease(60))).toEqual({ status: "taken" });
    expect(await take("live", start, lease(60))).toEqual({ status: "taken" });
    expect(await take("live", start, lease(60))).toMatchObject({ status: "full" });

    // Forty seconds on, only the live instance renewed its leases; eighty seconds on, the dead
    // instance's call has lapsed and its place is free.
    await renewMcpWaitingSlots({ db, instanceId: "live", leaseUntil: lease(100) });
    expect(await take("live", lease(80), lease(140))).toEqual({ status: "taken" });
    expect(await countMcpWaitingCalls({ db, tokenId, now: lease(80) })).toBe(2);
    expect(await db.mcpWaitingCall.count({ where: { tokenId, instanceId: "dead" } })).toBe(0);
  });
});
