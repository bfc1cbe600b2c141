import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { appendPending, registerEndpoint, requestView, testKeys } from "./testing/announce";
import { startWebhookReceiver } from "./testing/webhook-receiver";
import { openWebhookSecret } from "./webhook-secret";
import { createWebhookWorker } from "./webhook-worker";

// Where deliveries may go, checked when they are sent (ADR 0056), against a real receiver on this
// machine. The URLs are stored directly, as if the rule had been lifted when they were added.

const REFUSED = "The address was refused by the outbound address policy";

describe.each<TestProvider>(["sqlite", "postgres"])("webhook addresses on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const worker = (allowPrivate: boolean) =>
    createWebhookWorker({
      db: database.db,
      instanceId: `test-${Math.random()}`,
      allowPrivate,
      maxAttempts: 1,
      openSecret: (id, sealed) => openWebhookSecret(id, sealed, testKeys),
    });

  /** Registers one endpoint per URL, writes one event, runs one pass; returns the deliveries by URL. */
  async function deliverTo(urls: string[], allowPrivate: boolean) {
    await database.db.webhookEndpoint.deleteMany();
    await database.db.webhookMessage.deleteMany();
    const people = await seedPeople(database.db);
    for (const url of urls) await registerEndpoint(database.db, url, people.admin.id);
    await appendPending(database.db, people.threadId, [requestView()]);
    const w = worker(allowPrivate);
    while ((await w.tick()) > 0) {}
    const deliveries = await database.db.webhookDelivery.findMany({ include: { endpoint: true } });
    return new Map(deliveries.map((delivery) => [delivery.endpoint?.url, delivery]));
  }

  it("refuses a receiver on this machine by IP literal, by name and in every embedded form; it gets nothing", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { port } = new URL(receiver.url);
      const path = new URL(receiver.url).pathname;
      const hosts = [
        // A literal skips the name lookup: it is checked on its own.
        "127.0.0.1",
        "localhost",
        hostname(),
        "0.0.0.0",
        "169.254.169.254",
        "192.0.2.2",
        "198.51.100.7",
        "203.0.113.9",
        "198.18.0.1",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "[::7f00:1]",
        "[64:ff9b::127.0.0.1]",
        "[2002:7f00:1::]",
      ];
      const urls = hosts.map((host) => `http://${host}:${port}${path}`);
      const deliveries = await deliverTo(urls, false);
      expect(receiver.received).toHaveLength(0);
      for (const url of urls) {
        // The same words whatever the address, so the result tells nothing about what listens there.
        expect(deliveries.get(url), url).toMatchObject({
          status: "failed",
          lastStatusCode: null,
          lastError: REFUSED,
        });
      }
    } finally {
      await receiver.close();
    }
  });

  it("delivers to the same receiver, by literal and by name, when private addresses are allowed", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const urls = [receiver.url, receiver.url.replace("127.0.0.1", "localhost")];
      const deliveries = await deliverTo(urls, true);
      expect(receiver.received).toHaveLength(2);
      for (const url of urls) expect(deliveries.get(url)?.status, url).toBe("delivered");
    } finally {
      await receiver.close();
    }
  });

  it("does not follow a redirect, and keeps no part of the receiver's reply", async () => {
    const elsewhere = await startWebhookReceiver();
    const redirecting = await startWebhookReceiver((_received, _index, response) => {
      response.writeHead(307, { location: elsewhere.url }).end("internal detail that must not be kept");
      return "hold";
    });
    try {
      const deliveries = await deliverTo([redirecting.url], true);
      expect(redirecting.received).toHaveLength(1);
      expect(elsewhere.received).toHaveLength(0);
      expect(deliveries.get(redirecting.url)).toMatchObject({
        status: "failed",
        lastStatusCode: 307,
        lastError: "HTTP 307",
      });
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  });
});
