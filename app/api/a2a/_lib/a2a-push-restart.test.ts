import { describe, expect, it } from "vitest";
import { saveA2aPushConfig } from "@/lib/db/a2a-push-configs";
import { createHeldRun } from "@/lib/db/testing/seed-people";
import type { TestDatabase, TestProvider } from "@/lib/db/testing/test-database";
import { testKeys } from "@/lib/notify/testing/announce";
import { spawnOutboxChild, waitUntil, withOutboxDatabase } from "@/lib/notify/testing/outbox-crash";
import { startWebhookReceiver } from "@/lib/notify/testing/webhook-receiver";
import { sealPushToken } from "@/lib/notify/webhook-secret";
import { createA2APushQueue } from "./push-queue";

// A push is a row of the webhook outbox (ADR 0095): queued while no instance sends, and with the
// instance that was sending it killed mid-attempt, it is delivered by the next one to start.

describe.each<TestProvider>(["sqlite", "postgres"])("A2A pushes across restarts on %s", (provider) => {
  let database: TestDatabase;
  withOutboxDatabase(provider, (created) => {
    database = created;
  });

  it("delivers a push queued while no instance ran, after the one sending it was killed", {
    timeout: 60_000,
  }, async () => {
    const { db } = database;
    // The first attempt never gets its response: its instance dies while waiting.
    const receiver = await startWebhookReceiver((_hit, index) => (index === 0 ? "hold" : 200));
    try {
      const { runId } = await createHeldRun(db, "nobody");
      await saveA2aPushConfig({
        db,
        runId,
        configId: "hook-1",
        url: receiver.url,
        seal: (rowId) => sealPushToken(rowId, "restart-token", testKeys),
      });
      expect(await createA2APushQueue({ db }).pass()).toBe(1);
      expect(await db.webhookDelivery.findFirstOrThrow()).toMatchObject({ status: "pending", attempts: 0 });

      const first = spawnOutboxChild({ DATABASE_URL: database.url, LEASE_MS: "1000", POLL_MS: "50" });
      await receiver.waitForCount(1);
      first.process.kill("SIGKILL");
      await first.exited;

      const next = spawnOutboxChild({ DATABASE_URL: database.url, LEASE_MS: "1000", POLL_MS: "50" });
      await waitUntil(
        async () => (await db.webhookDelivery.findFirstOrThrow()).status === "delivered",
        "the push",
      );
      next.process.kill("SIGKILL");
      await next.exited;
      expect(receiver.received).toHaveLength(2);
      const [cut, sent] = receiver.received;
      expect(sent!.headers["webhook-id"]).toBe(cut!.headers["webhook-id"]);
      expect(sent!.headers["x-a2a-notification-token"]).toBe("restart-token");
      expect(JSON.parse(sent!.body)).toMatchObject({ id: runId, status: { state: "TASK_STATE_WORKING" } });
    } finally {
      await receiver.close();
    }
  });
});
