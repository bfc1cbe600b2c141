import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEvents } from "@/lib/db/events";
import { engineTransaction } from "@/lib/db/sql/transaction-options";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { replayWebhookDeliveryById } from "@/lib/db/webhook-deliveries";
import { appendPending, registerEndpoint, requestView, testKeys } from "./testing/announce";
import { startWebhookReceiver } from "./testing/webhook-receiver";
import { openWebhookSecret } from "./webhook-secret";
import { verifyWebhook } from "./webhook-signature";
import { createWebhookWorker, type WebhookWorkerOptions } from "./webhook-worker";

// The outbox and its worker against a real receiver on this machine, on both databases. Time is
// never asserted: retries use a zero backoff and the test ticks the worker itself.

const instant = { firstMs: 0, maxMs: 0, jitter: [1, 1] as const };

describe.each<TestProvider>(["sqlite", "postgres"])("webhook deliveries on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const worker = (overrides: Partial<WebhookWorkerOptions> = {}) =>
    createWebhookWorker({
      db: database.db,
      instanceId: `test-${Math.random()}`,
      allowPrivate: true,
      retry: instant,
      openSecret: (id, sealed) => openWebhookSecret(id, sealed, testKeys),
      ...overrides,
    });

  /** Every test starts from an empty outbox, so its worker sends only what that test wrote. */
  const reset = async () => {
    await database.db.webhookEndpoint.deleteMany();
    await database.db.webhookMessage.deleteMany();
  };

  it("signs each delivery in the Standard Webhooks format over the body fixed when the event was written", async () => {
    await reset();
    const receiver = await startWebhookReceiver();
    try {
      const people = await seedPeople(database.db);
      const endpoint = await registerEndpoint(database.db, receiver.url, people.admin.id);
      const view = requestView();
      await appendPending(database.db, people.threadId, [view]);
      const message = await database.db.webhookMessage.findFirstOrThrow();

      expect(await worker().tick()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [hit] = receiver.received;
      const id = hit!.headers["webhook-id"] as string;
      const timestamp = hit!.headers["webhook-timestamp"] as string;
      const signature = hit!.headers["webhook-signature"] as string;
      expect(id).toBe(message.id);
      expect(id).toMatch(/^msg_/);
      expect(hit!.body).toBe(message.body);
      // Computed here by hand from the format's definition, not with the app's own signer.
      const key = Buffer.from(endpoint.secret.slice("whsec_".length), "base64");
      const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${hit!.body}`).digest("base64");
      expect(signature).toBe(`v1,${expected}`);
      expect(
        verifyWebhook({ secret: endpoint.secret, headers: { id, timestamp, signature }, body: hit!.body }),
      ).toBe(true);
      expect(
        verifyWebhook({
          secret: endpoint.secret,
          headers: { id, timestamp, signature },
          body: `${hit!.body} `,
        }),
      ).toBe(false);
      const body = JSON.parse(hit!.body);
      expect(body).toMatchObject({
        type: "request.created",
        data: { id: view.id, threadId: people.threadId, request: view.request, toolName: "deploy" },
      });
      const delivery = await database.db.webhookDelivery.findFirstOrThrow();
      expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
    } finally {
      await receiver.close();
    }
  });

  it("retries a 500 with the same id and body until the receiver takes it", async () => {
    await reset();
    const receiver = await startWebhookReceiver((_hit, index) => (index < 2 ? 500 : 204));
    try {
      const people = await seedPeople(database.db);
      await registerEndpoint(database.db, receiver.url, people.admin.id, ["request.created"]);
      await appendPending(database.db, people.threadId, [requestView()]);
      const sender = worker();
      for (let pass = 0; pass < 20 && receiver.received.length < 3; pass += 1) await sender.tick();
      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((hit) => hit.headers["webhook-id"])).size).toBe(1);
      expect(new Set(receiver.received.map((hit) => hit.body)).size).toBe(1);
      const delivery = await database.db.webhookDelivery.findFirstOrThrow();
      expect(delivery).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 204 });
      // Delivered is final: more passes send nothing.
      await sender.tick();
      expect(receiver.received).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });

  it("gives up after its attempts, and an admin's replay sends the same message once more", async () => {
    await reset();
    let failing = true;
    const receiver = await startWebhookReceiver(() => (failing ? 503 : 200));
    try {
      const people = await seedPeople(database.db);
      await registerEndpoint(database.db, receiver.url, people.admin.id, ["request.created"]);
      await appendPending(database.db, people.threadId, [requestView()]);
      const sender = worker({ maxAttempts: 2 });
      for (let pass = 0; pass < 5; pass += 1) await sender.tick();
      const failed = await database.db.webhookDelivery.findFirstOrThrow();
      expect(failed).toMatchObject({
        status: "failed",
        attempts: 2,
        lastStatusCode: 503,
        lastError: "HTTP 503",
      });
      expect(receiver.received).toHaveLength(2);

      failing = false;
      expect(
        await replayWebhookDeliveryById({ db: database.db, id: failed.id, actorId: people.admin.id }),
      ).toEqual({
        outcome: "queued",
      });
      // A second replay while it waits is refused and queues nothing more.
      expect(
        await replayWebhookDeliveryById({ db: database.db, id: failed.id, actorId: people.admin.id }),
      ).toEqual({
        outcome: "already_pending",
      });
      await sender.tick();
      await sender.tick();
      expect(receiver.received).toHaveLength(3);
      expect(receiver.received[2]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
      expect(receiver.received[2]!.body).toBe(receiver.received[0]!.body);
      expect(await database.db.webhookDelivery.findFirstOrThrow()).toMatchObject({ status: "delivered" });
      const audit = await database.db.auditLog.findMany({ where: { targetId: failed.id } });
      expect(audit.map((entry) => entry.action)).toEqual(["webhook.delivery_replayed"]);
    } finally {
      await receiver.close();
    }
  });

  it("writes one message per occurrence: a request listed again by a later park adds none", async () => {
    await reset();
    const people = await seedPeople(database.db);
    await registerEndpoint(database.db, "http://127.0.0.1:9/unused", people.admin.id);
    const first = requestView();
    await appendPending(database.db, people.threadId, [first]);
    await appendPending(database.db, people.threadId, [first, requestView()]);
    expect(await database.db.webhookMessage.count()).toBe(2);
    expect(await database.db.webhookDelivery.count()).toBe(2);
  });

  it("writes the outbox in the event's transaction: a rolled-back event leaves no message", async () => {
    await reset();
    const people = await seedPeople(database.db);
    await registerEndpoint(database.db, "http://127.0.0.1:9/unused", people.admin.id);
    await expect(
      database.db.$transaction(async (tx) => {
        await appendEvents({
          tx,
          threadId: people.threadId,
          runId: null,
          bodies: [{ type: "pending", requests: [requestView()] }],
        });
        throw new Error("the rest of the park failed");
      }, engineTransaction),
    ).rejects.toThrow("the rest of the park failed");
    expect(await database.db.webhookMessage.count()).toBe(0);
    expect(await database.db.webhookDelivery.count()).toBe(0);
  });

  it("sends only what an endpoint subscribed to, and maps answers, expiries and run ends", async () => {
    await reset();
    const receiver = await startWebhookReceiver();
    try {
      const people = await seedPeople(database.db);
      await registerEndpoint(database.db, receiver.url, people.admin.id, [
        "request.answered",
        "run.finished",
      ]);
      await appendPending(database.db, people.threadId, [requestView()]);
      await database.db.$transaction(
        (tx) =>
          appendEvents({
            tx,
            threadId: people.threadId,
            runId: null,
            bodies: [
              {
                type: "request_resolved",
                id: "r1",
                status: "answered",
                ok: true,
                actorId: people.reviewer.id,
                // Answered in the place of someone away (ADR 0098).
                forUserId: people.owner.id,
              },
              { type: "request_resolved", id: "r2", status: "expired", ok: false, reason: "expired" },
              { type: "request_resolved", id: "r3", status: "cancelled", ok: false, reason: "cancelled" },
            ],
          }),
        engineTransaction,
      );
      expect(await worker().tick()).toBe(1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
        type: "request.answered",
        data: {
          id: "r1",
          status: "answered",
          ok: true,
          actorId: people.reviewer.id,
          forUserId: people.owner.id,
        },
      });
    } finally {
      await receiver.close();
    }
  });

  it("claims each delivery once when two instances send at the same time", async () => {
    await reset();
    const receiver = await startWebhookReceiver();
    try {
      const people = await seedPeople(database.db);
      await registerEndpoint(database.db, receiver.url, people.admin.id, ["request.created"]);
      await appendPending(
        database.db,
        people.threadId,
        Array.from({ length: 12 }, () => requestView()),
      );
      const other = database.connect();
      const a = worker();
      const b = worker({ db: other });
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      for (let pass = 0; pass < 5; pass += 1) await Promise.all([a.tick(), b.tick()]);
      const ids = receiver.received.map((hit) => hit.headers["webhook-id"]);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    } finally {
      await receiver.close();
    }
  });
});
