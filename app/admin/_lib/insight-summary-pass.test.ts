import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { gate } from "@/lib/db/testing/gate";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { createInsightSummaryPass } from "./insight-summary-pass";

const now = new Date(Date.UTC(2030, 0, 10, 12));
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

/**
 * `db` as a pass sees it, recording each table it reads or writes through the client; with a
 * `gate`, its first read of the summarised days waits for it (`entered` says it got there).
 */
function watch(db: DbClient, held?: Promise<void>) {
  const tables: string[] = [];
  const entered = gate();
  const client = new Proxy(db, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof key !== "string" || key.startsWith("$") || key.startsWith("_")) return value;
      tables.push(key);
      if (key !== "insightDay" || !held) return value;
      const delegate = value as DbClient["insightDay"];
      return new Proxy(delegate, {
        get(table, name) {
          if (name !== "findMany") return Reflect.get(table, name);
          return async (args: Parameters<typeof delegate.findMany>[0]) => {
            entered.open();
            await held;
            return delegate.findMany(args);
          };
        },
      });
    },
  });
  return { client, tables, entered: entered.opened };
}

describe.each<TestProvider>(["sqlite", "postgres"])("the insights summary pass on %s", (provider) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    const thread = await db.thread.create({ data: { userId: "u-owner", kind: "request" } });
    await db.request.create({
      data: {
        id: "r1",
        requestId: "pnd-r1",
        threadId: thread.id,
        ownerId: "u-owner",
        toolCallId: "c1",
        toolName: "deploy",
        args: {},
        kind: "approval",
        prompt: "Go?",
        payload: {},
        audience: "reviewers",
        status: "answered",
        createdAt: new Date(daysAgo(3).getTime() - 60_000),
      },
    });
    await db.answer.create({
      data: { requestRowId: "r1", ok: true, toolName: "deploy", createdAt: daysAgo(3) },
    });
  });
  afterEach(async () => {
    await database?.drop();
  });

  it("summarises every closed day of the longest period once, before anyone opens the page", async () => {
    const insights = createInsightSummaryPass({ db: database.db, now: () => now, pollMs: 60_000 });
    insights.start();
    await insights.stop();
    const days = await database.db.insightDay.findMany({ orderBy: { day: "asc" } });
    // The longest period's 89 closed days, up to yesterday: today, its 90th, is read live.
    expect(days).toHaveLength(89);
    expect(days.at(-1)?.day).toBe("2030-01-09");
    const summaries = await database.db.insightDaySummary.findMany();
    expect(summaries).toMatchObject([{ day: "2030-01-07", toolName: "deploy", approved: 1, declined: 0 }]);
    // A second pass (another instance, or the next poll) finds every day done and writes nothing.
    await insights.pass();
    expect(await database.db.insightDay.count()).toBe(89);
    expect(await database.db.insightDaySummary.count()).toBe(1);
  });

  it("runs in one instance at a time: another skips the round without reading the backlog", async () => {
    const round = gate();
    const first = watch(database.db, round.opened);
    const second = watch(database.connect());
    const firstPass = createInsightSummaryPass({ db: first.client, now: () => now }).pass();
    // The first instance holds the round and is reading the days to summarise.
    await first.entered;
    await createInsightSummaryPass({ db: second.client, now: () => now }).pass();
    expect(second.tables).toEqual([]);
    round.open();
    await firstPass;
    expect(await database.db.insightDay.count()).toBe(89);
    expect(await database.db.insightDaySummary.count()).toBe(1);
    // The round over, the next one is anyone's: it finds every day done.
    await createInsightSummaryPass({ db: second.client, now: () => now }).pass();
    expect(second.tables).toEqual(["insightDay"]);
    expect(await database.db.insightDay.count()).toBe(89);
  });
});
