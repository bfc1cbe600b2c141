import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { listWebhookDeliveryViews } from "@/lib/db/webhook-deliveries";
import { toPublicError } from "@/lib/errors";
import { registerEndpoint, testKeys } from "@/lib/notify/testing/announce";
import { startWebhookReceiver } from "@/lib/notify/testing/webhook-receiver";
import { openWebhookSecret } from "@/lib/notify/webhook-secret";
import { verifyWebhook } from "@/lib/notify/webhook-signature";
import { createWebhookWorker } from "@/lib/notify/webhook-worker";
import { sendWebhookTestEvent } from "./manage-webhooks";

// "Send a test event" goes through the outbox like every event: a real receiver on this machine
// gets it signed with the endpoint's secret, and the delivery is listed and audited.

describe.each<TestProvider>(["sqlite", "postgres"])("a webhook test event on %s", (provider) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db as Db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  const refusal = (promise: Promise<unknown>) => promise.then(() => null, toPublicError);

  it("is delivered signed to that endpoint only, whatever it subscribes to, listed and audited", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const admin = await newUser(db, "admin");
      // Subscribed to one event type only; another endpoint must not get the test.
      const endpoint = await registerEndpoint(db, receiver.url, admin.id, ["run.finished"]);
      const other = await registerEndpoint(db, `${receiver.url}/other`, admin.id);

      const sent = await sendWebhookTestEvent({ actor: admin, input: { id: endpoint.id } }, { db });
      expect(sent).toEqual({ id: endpoint.id, messageId: expect.stringMatching(/^msg_/) });
      const { rows } = await listWebhookDeliveryViews({ db });
      expect(rows).toMatchObject([{ endpointId: endpoint.id, type: "webhook.test", status: "pending" }]);

      const worker = createWebhookWorker({
        db,
        instanceId: "test-event",
        allowPrivate: true,
        openSecret: (id, sealed) => openWebhookSecret(id, sealed, testKeys),
      });
      expect(await worker.tick()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [hit] = receiver.received;
      const headers = {
        id: hit!.headers["webhook-id"] as string,
        timestamp: hit!.headers["webhook-timestamp"] as string,
        signature: hit!.headers["webhook-signature"] as string,
      };
      expect(headers.id).toBe(sent.messageId);
      expect(verifyWebhook({ secret: endpoint.secret, headers, body: hit!.body })).toBe(true);
      expect(JSON.parse(hit!.body)).toMatchObject({
        type: "webhook.test",
        data: { endpointId: endpoint.id },
      });
      expect((await listWebhookDeliveryViews({ db })).rows).toMatchObject([{ status: "delivered" }]);

      const audit = await db.auditLog.findMany({ where: { action: "webhook.test_sent" } });
      expect(audit).toMatchObject([
        {
          actorId: admin.id,
          targetType: "webhook",
          targetId: endpoint.id,
          detail: { messageId: sent.messageId },
        },
      ]);
      expect(await db.webhookDelivery.count({ where: { endpointId: other.id } })).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("refuses other roles and unknown endpoints, queuing nothing", async () => {
    const admin = await newUser(db, "admin");
    const endpoint = await registerEndpoint(db, "https://hooks.example.test/in", admin.id);
    const before = await db.webhookDelivery.count();
    for (const role of ["user", "reviewer"] as const) {
      const actor = await newUser(db, role);
      expect(
        await refusal(sendWebhookTestEvent({ actor, input: { id: endpoint.id } }, { db })),
      ).toMatchObject({
        code: "forbidden:role",
      });
    }
    expect(
      await refusal(sendWebhookTestEvent({ actor: admin, input: { id: "whk_none" } }, { db })),
    ).toMatchObject({
      code: "not_found:webhook",
    });
    expect(await refusal(sendWebhookTestEvent({ actor: admin, input: {} }, { db }))).toMatchObject({
      code: "bad_request:input",
    });
    expect(await db.webhookDelivery.count()).toBe(before);
  });
});
