import { describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import type { TestDatabase, TestProvider } from "@/lib/db/testing/test-database";
import { registerEndpoint } from "./testing/announce";
import { spawnOutboxChild, waitUntil, withOutboxDatabase } from "./testing/outbox-crash";
import { startWebhookReceiver } from "./testing/webhook-receiver";

// Real app processes, SIGKILLed where a delivery could be lost or doubled: right after the
// event's commit (before any attempt), and while an attempt waits for its response.

describe.each<TestProvider>(["sqlite", "postgres"])("webhooks across a killed instance on %s", (provider) => {
  let database: TestDatabase;
  withOutboxDatabase(provider, (created) => {
    database = created;
  });

  it("delivers an event whose instance was killed right after its commit, once", {
    timeout: 60_000,
  }, async () => {
    await database.db.webhookEndpoint.deleteMany();
    const receiver = await startWebhookReceiver();
    try {
      const people = await seedPeople(database.db);
      await registerEndpoint(database.db, receiver.url, people.admin.id, ["request.created"]);
      // Its worker has looked once and will not look again for a minute: the kill lands first.
      const first = spawnOutboxChild({
        DATABASE_URL: database.url,
        LEASE_MS: "60000",
        POLL_MS: "60000",
        START_AFTER_MS: "60000",
      });
      await first.waitFor(/^ready$/);
      first.send(`announce ${people.threadId}`);
      await first.waitFor(/^committed$/);
      first.process.kill("SIGKILL");
      await first.exited;
      expect(receiver.received).toHaveLength(0);
      expect(await database.db.webhookDelivery.findFirstOrThrow()).toMatchObject({
        status: "pending",
        attempts: 0,
      });

      const next = spawnOutboxChild({ DATABASE_URL: database.url, LEASE_MS: "60000", POLL_MS: "50" });
      await waitUntil(
        async () => (await database.db.webhookDelivery.findFirstOrThrow()).status === "delivered",
        "the delivery",
      );
      next.process.kill("SIGKILL");
      await next.exited;
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("sends an attempt cut short by a kill again under the same webhook-id and body", {
    timeout: 60_000,
  }, async () => {
    await database.db.webhookEndpoint.deleteMany();
    // The first attempt never gets its response: its instance dies while waiting.
    const receiver = await startWebhookReceiver((_hit, index) => (index === 0 ? "hold" : 200));
    try {
      const people = await seedPeople(database.db);
      await registerEndpoint(database.db, receiver.url, people.admin.id, ["request.created"]);
      const first = spawnOutboxChild({ DATABASE_URL: database.url, LEASE_MS: "1000", POLL_MS: "50" });
      await first.waitFor(/^ready$/);
      first.send(`announce ${people.threadId}`);
      await receiver.waitForCount(1);
      first.process.kill("SIGKILL");
      await first.exited;

      const next = spawnOutboxChild({ DATABASE_URL: database.url, LEASE_MS: "1000", POLL_MS: "50" });
      await waitUntil(
        async () => (await database.db.webhookDelivery.findFirstOrThrow()).status === "delivered",
        "the delivery",
      );
      next.process.kill("SIGKILL");
      await next.exited;
      const delivery = await database.db.webhookDelivery.findFirstOrThrow();
      expect(delivery.attempts).toBe(2);
      // At least once: the repeat is the one the format allows, recognisable by its id.
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    } finally {
      await receiver.close();
    }
  });
});
