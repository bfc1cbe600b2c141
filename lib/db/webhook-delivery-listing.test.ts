import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { explainQuery } from "./testing/explain-query";
import { createLoggedDb } from "./testing/logged-db";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { listWebhookDeliveryViews } from "./webhook-deliveries";

// The admin page pages through every delivery ever made, so each status and "all" must read an
// index in page order, never sort the whole history (as the audit's plans are pinned).

const DELIVERIES = 120;
const STATUSES = ["pending", "delivered", "failed"] as const;

describe.each(["sqlite", "postgres"] as const)("listing webhook deliveries (%s)", (provider) => {
  let database: TestDatabase;
  let logged: ReturnType<typeof createLoggedDb>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.webhookEndpoint.create({
      data: {
        id: "ep-1",
        url: "https://hooks.example.test/in",
        events: ["request.created"],
        secretEnc: "sealed",
      },
    });
    const start = Date.UTC(2030, 0, 1);
    for (let i = 0; i < DELIVERIES; i += 1) {
      const at = new Date(start + i * 60_000);
      await db.webhookMessage.create({
        data: {
          id: `msg_${i}`,
          eventKey: `request.created:r-${i}`,
          type: "request.created",
          body: "{}",
          createdAt: at,
        },
      });
      const status = STATUSES[i % 3]!;
      await db.webhookDelivery.create({
        data: {
          id: `d-${String(i).padStart(3, "0")}`,
          messageId: `msg_${i}`,
          endpointId: "ep-1",
          status,
          attempts: status === "pending" ? 0 : 1,
          ...(status === "delivered" ? { deliveredAt: at } : {}),
          createdAt: at,
        },
      });
    }
    await db.$executeRawUnsafe("ANALYZE");
    logged = createLoggedDb({ url: database.url, provider });
  });

  afterAll(async () => {
    await logged?.db.$disconnect();
    await database?.drop();
  });

  /** One page, and the plan of its query (the SELECT on WebhookDelivery with ORDER BY). */
  const pageOf = async (input: { status?: (typeof STATUSES)[number]; page: number }) => {
    logged.queries.length = 0;
    const result = await listWebhookDeliveryViews({ db: logged.db, pageSize: 25, ...input });
    const query = logged.queries.find(
      (q) => /FROM [`"]\w+[`"]\.[`"]WebhookDelivery[`"]/.test(q.sql) && /ORDER BY/.test(q.sql),
    );
    if (!query) throw new Error(`no page query among:\n${logged.queries.map((q) => q.sql).join("\n")}`);
    return { result, plan: (await explainQuery(database.db, provider, query, { ordered: true })).join("\n") };
  };

  const expectOrderedBy = (plan: string, index: string) => {
    expect(plan).toContain(index);
    if (provider === "sqlite") expect(plan).not.toMatch(/TEMP B-TREE/);
    else expect(plan).not.toMatch(/Seq Scan|Sort/);
  };

  test("every delivery, newest first, page by page, from (createdAt, id)", async () => {
    const second = await pageOf({ page: 2 });
    expect(second.result.total).toBe(DELIVERIES);
    expect(second.result.rows.map((row) => row.messageId)).toEqual(
      [...Array(25)].map((_, i) => `msg_${DELIVERIES - 26 - i}`),
    );
    expect(second.result.rows[0]).toMatchObject({
      endpointUrl: "https://hooks.example.test/in",
      type: "request.created",
    });
    expectOrderedBy(second.plan, "WebhookDelivery_createdAt_id_idx");

    const last = await pageOf({ page: 5 });
    expect(last.result.rows.map((row) => row.messageId)).toEqual(
      [...Array(20)].map((_, i) => `msg_${19 - i}`),
    );
    expect((await pageOf({ page: 6 })).result.rows).toEqual([]);
  });

  test("one status's deliveries come from (status, createdAt, id), with their own total", async () => {
    for (const status of STATUSES) {
      const { result, plan } = await pageOf({ status, page: 1 });
      expect(result.total).toBe(DELIVERIES / 3);
      expect(result.rows).toHaveLength(25);
      expect(result.rows.every((row) => row.status === status)).toBe(true);
      expectOrderedBy(plan, "WebhookDelivery_status_createdAt_id_idx");
    }
    const failed = await pageOf({ status: "failed", page: 2 });
    expect(failed.result.rows.map((row) => row.messageId)).toEqual(
      [...Array(15)].map((_, i) => `msg_${DELIVERIES - 1 - 3 * (25 + i)}`),
    );
  });
});
