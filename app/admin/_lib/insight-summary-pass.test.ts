import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { createInsightSummaryPass } from "./insight-summary-pass";

const now = new Date(Date.UTC(2030, 0, 10, 12));
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

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
});
