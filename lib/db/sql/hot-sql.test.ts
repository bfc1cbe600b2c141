import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "@/lib/toolnexus/types";
import { recordAuditEntry } from "../audit";
import { appendEvents } from "../events";
import { appendMissingMessages, getTranscriptTextByThread } from "../messages";
import { createHeldRun } from "../testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "../testing/test-database";
import { getDbProvider } from "./db-provider";
import {
  hotSqlOf,
  inInsertBatches,
  sql,
  sqlBool,
  sqlInt,
  sqlJoin,
  sqlJson,
  sqlTable,
  sqlTime,
} from "./hot-sql";
import { newRowId } from "./row-id";

// The engine's hot statements bypass Prisma's typed client (ADR 0045). What they write must read
// back through that client exactly as if it had written it, they must join the caller's
// transaction (its rollback too), and a transaction must still lead back to its client.

class Rollback extends Error {}

describe.each<TestProvider>(["sqlite", "postgres"])("hot statements on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(() => database?.drop());

  it("finds the client behind a transaction, and joins the transaction", async () => {
    const { db } = database;
    const { threadId } = await createHeldRun(db, "here");
    const seqOf = async () => (await db.thread.findUniqueOrThrow({ where: { id: threadId } })).lastEventSeq;
    const before = await seqOf();
    await expect(
      db.$transaction(async (tx) => {
        expect(getDbProvider({ db: tx })).toBe(provider);
        await hotSqlOf(tx).execute(
          sql`UPDATE ${sqlTable("Thread")} SET "lastEventSeq" = "lastEventSeq" + ${sqlInt(5)} WHERE "id" = ${threadId}`,
        );
        // Visible inside the transaction, to Prisma's own statements as well.
        expect((await tx.thread.findUniqueOrThrow({ where: { id: threadId } })).lastEventSeq).toBe(
          before + 5,
        );
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await seqOf()).toBe(before);
  });

  it("writes dates, JSON, booleans, integers and typed nulls as Prisma reads them", async () => {
    const { db } = database;
    const { threadId, runId } = await createHeldRun(db, "here");
    const { userId } = await db.run.findUniqueOrThrow({ where: { id: runId } });
    const at = new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123));
    const request = await db.request.create({
      data: {
        requestId: "ask",
        runId,
        threadId,
        ownerId: userId,
        toolCallId: "call",
        toolName: "tool",
        args: {},
        kind: "input",
        prompt: "?",
        payload: {},
      },
    });
    const id = newRowId();
    const data = { name: "Zoë", nested: { list: [1, 2.5, null, "x"], flag: false } };
    await hotSqlOf(db).execute(sql`
      INSERT INTO ${sqlTable("Answer")} ("id", "requestRowId", "actorId", "ok", "data", "reason", "toolName", "createdAt")
      VALUES (${id}, ${request.id}, ${null}, ${sqlBool(true)}, ${sqlJson(JSON.stringify(data))}, ${null}, ${"tool"},
        ${sqlTime(at)})`);
    const answer = await db.answer.findUniqueOrThrow({ where: { id } });
    expect(answer).toEqual({
      id,
      requestRowId: request.id,
      actorId: null,
      ok: true,
      data,
      reason: null,
      forUserId: null,
      toolName: "tool",
      createdAt: at,
    });
    await hotSqlOf(db).execute(
      sql`UPDATE ${sqlTable("Request")} SET "expiresAt" = ${sqlTime(null)}, "data" = ${sqlJson(null)} WHERE "id" = ${request.id}`,
    );
    expect(await db.request.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      expiresAt: null,
      data: null,
    });
  });

  it("stores events, messages and audit entries as the typed client reads them", async () => {
    const { db } = database;
    const { threadId, runId } = await createHeldRun(db, "here");
    const { userId } = await db.run.findUniqueOrThrow({ where: { id: runId } });
    const events = await db.$transaction((tx) =>
      appendEvents({
        tx,
        threadId,
        runId,
        bodies: [
          { type: "text", delta: 'Hello — ✓ \u2028 "quoted"' },
          { type: "run_status", status: "running" },
        ],
      }),
    );
    const rows = await db.event.findMany({ where: { threadId, seq: { in: events.map((e) => e.seq) } } });
    expect(rows.map((row) => ({ type: row.type, payload: row.payload, runId: row.runId }))).toEqual([
      { type: "text", payload: { delta: 'Hello — ✓ \u2028 "quoted"' }, runId },
      { type: "run_status", payload: { status: "running" }, runId },
    ]);
    expect(rows.map((row) => row.createdAt.toISOString())).toEqual(events.map((event) => event.createdAt));
    await db.$transaction((tx) =>
      recordAuditEntry({
        tx,
        actorId: userId,
        action: "run.cancelled",
        targetType: "run",
        targetId: runId,
        detail: { why: "test" },
      }),
    );
    expect(await db.auditLog.findFirstOrThrow({ where: { targetId: runId } })).toMatchObject({
      actorId: userId,
      action: "run.cancelled",
      detail: { why: "test" },
    });
  });

  it("stores a transcript longer than one statement can carry, in order", async () => {
    const { db } = database;
    const { threadId, runId } = await createHeldRun(db, "here");
    const stored = await db.message.count({ where: { threadId } });
    const messages: Message[] = Array.from({ length: 5_000 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `message ${i}`,
    }));
    const read = async (count: number) =>
      JSON.parse(`[${await getTranscriptTextByThread({ db, threadId, count })}]`) as Message[];
    const existing = await read(stored);
    await db.$transaction((tx) =>
      appendMissingMessages({ tx, threadId, runId, messages: [...existing, ...messages], known: stored }),
    );
    const all = await read(stored + messages.length);
    expect(all.slice(stored)).toEqual(messages);
  });

  it("renders statements held in others in place, each value bound where it stands", async () => {
    const hot = hotSqlOf(database.db);
    const inner = sql`${sqlInt(2)} AS "b", ${"two"} AS "bText"`;
    const listed = sqlJoin([sql`${sqlInt(4)} AS "d"`, sql`(SELECT ${sqlInt(5)}) AS "e"`], ", ");
    const [row] = await hot.query<Record<string, unknown>>(
      sql`SELECT ${sqlInt(1)} AS "a", ${inner}, ${sqlInt(3)} AS "c", ${listed}`,
    );
    expect(row).toEqual({ a: 1, b: 2, bText: "two", c: 3, d: 4, e: 5 });
    const [matched] = await hot.query<{ n: number | bigint }>(
      sql`SELECT count(*) AS "n" FROM ${sqlTable("User")} WHERE ${sqlJoin([sql`"id" = ${"nobody"}`, sql`"role" = ${"user"}`], " AND ")}`,
    );
    expect(Number(matched!.n)).toBe(0);
    expect(() => sqlJoin([], ", ")).toThrow(/at least one/);
  });

  it("cuts rows into lots and makes ids shaped as Prisma's", () => {
    expect(inInsertBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inInsertBatches([], 2)).toEqual([]);
    const ids = Array.from({ length: 1_000 }, newRowId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^c[0-9a-z]{24}$/);
  });
});
