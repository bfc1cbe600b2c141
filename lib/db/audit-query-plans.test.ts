import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type AuditQuery, listAuditAnswers } from "./audit-answers";
import { explainQuery } from "./testing/explain-query";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createLoggedDb } from "./testing/logged-db";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

// The audit pages through every answer ever given, so each of its filters must read an index
// in page order, never sort the whole history. As in sweep-query-plans.test.ts, the database
// is asked how it plans exactly the SQL Prisma sends (PostgreSQL with sequential and bitmap
// scans priced out).

const ANSWERS = 300;

describe.each(["sqlite", "postgres"] as const)("query plans of the audit (%s)", (provider) => {
  let database: TestDatabase;
  let logged: ReturnType<typeof createLoggedDb>;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    await db.user.create({ data: { id: "u-rita", email: "rita@example.test", role: "reviewer" } });
    await db.user.create({ data: { id: "u-sam", email: "sam@example.test", role: "reviewer" } });
    const reasons = [null, "declined", "expired", "cancelled"] as const;
    for (let i = 0; i < ANSWERS; i += 1) {
      const id = `r-${i}`;
      await insertInboxRequest({
        db,
        row: {
          id,
          ownerId: "u-owner",
          kind: "approval",
          audience: "reviewers",
          prompt: id,
          minutesAgo: i,
          status: "answered",
        },
      });
      const reason = reasons[i % 4]!;
      await db.answer.create({
        data: {
          requestRowId: id,
          // As the claim copies it from the request (insertInboxRequest's tool).
          toolName: "tool",
          actorId: reason === "expired" ? null : i % 3 === 0 ? "u-rita" : "u-sam",
          ok: reason === null,
          reason,
          createdAt: new Date(Date.UTC(2030, 0, 1) + i * 60_000),
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

  /** The plan of the page query (the first SELECT on Answer), and the rows it returned. */
  const pageOf = async (query: Partial<AuditQuery>) => {
    logged.queries.length = 0;
    const result = await listAuditAnswers({ db: logged.db, query: { page: 2, pageSize: 10, ...query } });
    const page = logged.queries.find(
      (q) => /FROM [`"]\w+[`"]\.[`"]Answer[`"] /.test(q.sql) && /ORDER BY/.test(q.sql),
    );
    if (!page) throw new Error(`no page query among:\n${logged.queries.map((q) => q.sql).join("\n")}`);
    return { result, plan: (await explainQuery(database.db, provider, page, { ordered: true })).join("\n") };
  };

  const expectOrderedBy = (plan: string, index: string) => {
    expect(plan).toContain(index);
    if (provider === "sqlite") expect(plan).not.toMatch(/TEMP B-TREE/);
    else expect(plan).not.toMatch(/Seq Scan|Sort/);
  };

  test("all answers, newest first, come from (createdAt, id)", async () => {
    const { result, plan } = await pageOf({});
    expect(result.total).toBe(ANSWERS);
    expect(result.rows.map((row) => row.prompt)).toEqual(
      [...Array(10)].map((_, i) => `r-${ANSWERS - 11 - i}`),
    );
    expectOrderedBy(plan, "Answer_createdAt_id_idx");
  });

  test("one person's answers come from (actorId, createdAt, id)", async () => {
    const { result, plan } = await pageOf({ actorId: "u-rita" });
    expect(result.rows.every((row) => row.actor?.id === "u-rita")).toBe(true);
    expectOrderedBy(plan, "Answer_actorId_createdAt_id_idx");
  });

  test("one outcome's answers come from (ok, createdAt, id) or (ok, reason, createdAt, id)", async () => {
    for (const [outcome, index] of [
      ["approved", "Answer_ok_createdAt_id_idx"],
      ["declined", "Answer_ok_reason_createdAt_id_idx"],
    ] as const) {
      const { result, plan } = await pageOf({ outcome });
      expect(result.rows.every((row) => row.outcome === outcome)).toBe(true);
      expect(result.total).toBe(ANSWERS / 4);
      expectOrderedBy(plan, index);
    }
    // Every request here is an approval: none of its positive answers reads "answered".
    expect((await pageOf({ outcome: "answered" })).result.total).toBe(0);
  });

  test("one tool's answers come from (toolName, createdAt, id), without reading requests to filter", async () => {
    const { result, plan } = await pageOf({ toolName: "tool" });
    expect(result.total).toBe(ANSWERS);
    expect(result.rows.every((row) => row.toolName === "tool")).toBe(true);
    expectOrderedBy(plan, "Answer_toolName_createdAt_id_idx");
    expect((await pageOf({ toolName: "another_tool" })).result.total).toBe(0);
  });
});
