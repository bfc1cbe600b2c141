import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createPostgresEventBus } from "./postgres-event-bus";
import { makeTestEngine } from "./testing/engine-fixture";
import { memoryLog } from "./testing/scripted-agent";

// Two instances behind one load balancer: the long poll of GET /api/v1/requests/{id}?wait
// lands on one, the reviewer's answer on the other.
describe("waiting on a request with no run, across instances on one PostgreSQL", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("wakes the waiter on one instance when the answer is taken on another", {
    timeout: 60_000,
  }, async () => {
    const { owner, reviewer } = await seedPeople(database.db);
    const [busA, busB] = await Promise.all([
      createPostgresEventBus({ connectionString: database.url, instanceId: "a" }),
      createPostgresEventBus({ connectionString: database.url, instanceId: "b" }),
    ]);
    try {
      const a = makeTestEngine({ db: database.db, log: memoryLog(), bus: busA });
      const b = makeTestEngine({ db: database.db, log: memoryLog(), bus: busB });
      const { request } = await a.createRequest({
        owner,
        apiTokenId: "token",
        request: { kind: "approval", prompt: "Ship it?" },
        idempotencyKey: null,
        createHash: "h",
      });
      let settled = false;
      const waiting = a
        .waitForRequest({ requestId: request.id, ownerId: owner.id, timeoutMs: 600_000 })
        .finally(() => {
          settled = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await b.answerRequest({ requestId: request.id, actor: reviewer, answer: { ok: true } });
      // Only the notification can end this wait within the test's time: its own end is 10 minutes away.
      expect(await waiting).toMatchObject({ status: "answered", answer: { ok: true, actorId: reviewer.id } });
    } finally {
      await Promise.all([busA.close(), busB.close()]);
    }
  });
});
