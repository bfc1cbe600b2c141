import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InsightFilters, InsightScope } from "@/lib/domain/insights";
import { listInsightChoices, loadInsights } from "./insights";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

const NOW = new Date(Date.UTC(2030, 0, 10, 12));
const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2030, 0, day, hour, minute));
const ALL: InsightScope = { kind: "all" };
const SRE: InsightScope = { kind: "groups", slugs: ["sre"] };
const WEEK: InsightFilters = { days: 7, tool: undefined, group: undefined };

type Seed = {
  tool: string;
  to: "owner" | "reviewers" | string;
  askedAt: Date;
  status: "open" | "answered" | "expired";
  answer?: { afterMinutes: number; ok: boolean };
  expiresAt?: Date;
};

let counter = 0;
async function seed(db: TestDatabase["db"], row: Seed): Promise<string> {
  counter += 1;
  const id = `r${counter}`;
  const thread = await db.thread.create({ data: { userId: "u-owner", kind: "request" } });
  const audience = row.to === "owner" || row.to === "reviewers" ? row.to : "group";
  await db.request.create({
    data: {
      id,
      requestId: `pnd-${id}`,
      threadId: thread.id,
      ownerId: "u-owner",
      toolCallId: "c1",
      toolName: row.tool,
      args: {},
      kind: "approval",
      prompt: `Run ${row.tool}?`,
      payload: {},
      audience,
      ...(audience === "group" ? { audienceGroup: row.to } : {}),
      status: row.status,
      createdAt: row.askedAt,
      ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}),
    },
  });
  if (row.answer)
    await db.answer.create({
      data: {
        requestRowId: id,
        ok: row.answer.ok,
        toolName: row.tool,
        createdAt: new Date(row.askedAt.getTime() + row.answer.afterMinutes * 60_000),
      },
    });
  // As the app expires a request: with an answer that declines nothing, at its expiry.
  if (row.status === "expired" && row.expiresAt)
    await db.answer.create({
      data: { requestRowId: id, ok: false, reason: "expired", toolName: row.tool, createdAt: row.expiresAt },
    });
  return id;
}

/** One step of a request's ladder, fired at `firedAt` (null: not yet). */
async function step(
  db: TestDatabase["db"],
  requestRowId: string,
  kind: "add" | "remind",
  firedAt: Date | null,
) {
  const position = await db.requestEscalationStep.count({ where: { requestRowId } });
  const action = kind === "add" ? { add: "leads" } : "remind";
  const dueAt = firedAt ?? NOW;
  await db.requestEscalationStep.create({
    data: { requestRowId, position, after: "15m", kind, action, dueAt, firedAt },
  });
}

const answered = (tool: string, to: string, askedAt: Date, afterMinutes: number, ok = true): Seed => ({
  tool,
  to,
  askedAt,
  status: "answered",
  answer: { afterMinutes, ok },
});

describe.each<TestProvider>(["sqlite", "postgres"])("insights on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const db = database.db;
    await db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    await db.approverGroup.create({ data: { slug: "sre", name: "SRE" } });
    await db.approverGroup.create({ data: { slug: "ops", name: "Ops" } });
    // deploy → sre on 9 Jan: 10, 20, 30, 40 minutes; the 40-minute one declined.
    for (const minutes of [10, 20, 30, 40])
      await seed(db, answered("deploy", "sre", at(9, 10), minutes, minutes !== 40));
    await seed(db, answered("deploy", "reviewers", at(8, 10), 5));
    // email → ops on 9 Jan: 1..10 minutes, the 1- and 2-minute ones declined; one to its asker.
    for (let minutes = 1; minutes <= 10; minutes += 1)
      await seed(db, answered("email", "ops", at(9, 8), minutes, minutes > 2));
    await seed(db, answered("email", "owner", at(9, 6), 100));
    // Before the 7-day period: counted nowhere.
    await seed(db, answered("deploy", "sre", at(1, 10), 999, false));
    for (const expiresAt of [at(5, 10), at(5, 11), at(10, 9)])
      await seed(db, { tool: "deploy", to: "sre", askedAt: at(4, 1), status: "expired", expiresAt });
    await seed(db, { tool: "email", to: "ops", askedAt: at(5, 1), status: "expired", expiresAt: at(6, 1) });
    const old = await seed(db, {
      tool: "email",
      to: "ops",
      askedAt: at(1, 1),
      status: "expired",
      expiresAt: at(2, 1),
    });
    const sreOpen = await seed(db, { tool: "deploy", to: "sre", askedAt: at(10, 11, 30), status: "open" });
    const opsOpen = await seed(db, { tool: "email", to: "ops", askedAt: at(10, 10), status: "open" });
    // Escalations: steps that added people, fired in the period. A reminder, a step not yet
    // fired and one fired before the period count nowhere.
    await step(db, sreOpen, "add", at(10, 11, 45));
    await step(db, opsOpen, "remind", at(10, 10, 15));
    await step(db, opsOpen, "add", at(10, 10, 30));
    await step(db, opsOpen, "add", null);
    await step(db, old, "add", at(1, 2));
    await seed(db, { tool: "email", to: "owner", askedAt: at(10, 2), status: "open" });
    await seed(db, { tool: "deploy", to: "fin", askedAt: at(8, 12), status: "open" });
    await seed(db, { tool: "deploy", to: "reviewers", askedAt: at(5, 12), status: "open" });
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Percentiles are read from histograms (ADR 0099): the nearest-rank answer's bucket end, at
  // most 3% above it and never above the slowest. Bucket ends (1 s · 1.03^i) worked out by hand:
  // 5 min → 5.005, 6 → 6.156, 9 → 9.040, 10 → 10.175, 20 → 20.081 minutes.
  it("computes p50 and p90 per day by tool and by group, as worked out by hand", async () => {
    const figures = await loadInsights({ db: database.db, scope: ALL, filters: WEEK, now: NOW });
    expect(figures.byTool).toEqual([
      { day: "2030-01-08", series: "deploy", answers: 1, p50Minutes: 5, p90Minutes: 5 },
      // 10, 20, 30, 40: the 2nd (20 → 20.1) and the 4th, the slowest (40).
      { day: "2030-01-09", series: "deploy", answers: 4, p50Minutes: 20.1, p90Minutes: 40 },
      // 1..10 and 100: the 6th (6 → 6.2) and 10th (10 → 10.2) of 11.
      { day: "2030-01-09", series: "email", answers: 11, p50Minutes: 6.2, p90Minutes: 10.2 },
    ]);
    expect(figures.byGroup).toEqual([
      { day: "2030-01-08", series: "*any", answers: 1, p50Minutes: 5, p90Minutes: 5 },
      { day: "2030-01-09", series: "*owner", answers: 1, p50Minutes: 100, p90Minutes: 100 },
      { day: "2030-01-09", series: "ops", answers: 10, p50Minutes: 5, p90Minutes: 9 },
      { day: "2030-01-09", series: "sre", answers: 4, p50Minutes: 20.1, p90Minutes: 40 },
    ]);
  });

  it("counts approve and decline rates per tool, open requests by age, escalations and expiries per day", async () => {
    const figures = await loadInsights({ db: database.db, scope: ALL, filters: WEEK, now: NOW });
    expect(figures.ratesByTool).toEqual([
      { tool: "deploy", answers: 5, approved: 4, declined: 1, approvedShare: 80 },
      { tool: "email", answers: 11, approved: 9, declined: 2, approvedShare: 81.8 },
    ]);
    expect(figures.openByAge.map((row) => row.open)).toEqual([1, 1, 1, 1, 1]);
    expect(figures.expiriesPerDay).toEqual([
      { day: "2030-01-04", expired: 0 },
      { day: "2030-01-05", expired: 2 },
      { day: "2030-01-06", expired: 1 },
      { day: "2030-01-07", expired: 0 },
      { day: "2030-01-08", expired: 0 },
      { day: "2030-01-09", expired: 0 },
      { day: "2030-01-10", expired: 1 },
    ]);
    expect(figures.escalationsPerDay.map((row) => row.escalated)).toEqual([0, 0, 0, 0, 0, 0, 2]);
    expect(figures.slowestOpen.map((row) => [row.tool, row.group, row.ageMinutes])).toEqual([
      ["deploy", "*any", 5 * 24 * 60],
      ["deploy", "fin", 2 * 24 * 60],
      ["email", "*owner", 10 * 60],
      ["email", "ops", 2 * 60],
      ["deploy", "sre", 30],
    ]);
  });

  it("keeps a reviewer to their groups and the any-reviewer pool", async () => {
    const figures = await loadInsights({ db: database.db, scope: SRE, filters: WEEK, now: NOW });
    expect(figures.byGroup.map((point) => point.series)).toEqual(["*any", "sre"]);
    expect(figures.ratesByTool).toEqual([
      { tool: "deploy", answers: 5, approved: 4, declined: 1, approvedShare: 80 },
    ]);
    expect(figures.openByAge.map((row) => row.open)).toEqual([1, 0, 0, 0, 1]);
    expect(figures.expiriesPerDay.map((row) => row.expired)).toEqual([0, 2, 0, 0, 0, 0, 1]);
    expect(figures.escalationsPerDay.map((row) => row.escalated)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    const choices = await listInsightChoices({ db: database.db, scope: SRE, now: NOW });
    expect(choices.groups).toEqual(["*any", "sre"]);
    expect((await listInsightChoices({ db: database.db, scope: ALL, now: NOW })).groups).toEqual([
      "*any",
      "*owner",
      "ops",
      "sre",
    ]);
  });

  it("narrows every figure by tool, by group and by period", async () => {
    const email = await loadInsights({
      db: database.db,
      scope: ALL,
      filters: { ...WEEK, tool: "email" },
      now: NOW,
    });
    expect(email.ratesByTool.map((row) => row.tool)).toEqual(["email"]);
    expect(email.openByAge.map((row) => row.open)).toEqual([0, 1, 1, 0, 0]);
    const ops = await loadInsights({
      db: database.db,
      scope: ALL,
      filters: { ...WEEK, group: "ops" },
      now: NOW,
    });
    expect(ops.byTool).toEqual([
      { day: "2030-01-09", series: "email", answers: 10, p50Minutes: 5, p90Minutes: 9 },
    ]);
    expect(ops.expiriesPerDay.reduce((sum, row) => sum + row.expired, 0)).toBe(1);
    const month = await loadInsights({
      db: database.db,
      scope: ALL,
      filters: { ...WEEK, days: 30 },
      now: NOW,
    });
    expect(month.ratesByTool[0]).toEqual({
      tool: "deploy",
      answers: 6,
      approved: 4,
      declined: 2,
      approvedShare: 66.7,
    });
    expect(month.expiriesPerDay).toHaveLength(30);
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])("the insights' tool choices on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    await database.db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("offer a tool first asked today, answered or expired, before its day is summarised", async () => {
    await seed(database.db, answered("deploy", "sre", at(8, 10), 5));
    await seed(database.db, answered("rotate-keys", "reviewers", at(10, 9), 5));
    await seed(database.db, {
      tool: "purge",
      to: "owner",
      askedAt: at(10, 8),
      status: "expired",
      expiresAt: at(10, 9),
    });
    await seed(database.db, answered("resize", "ops", at(10, 7), 5));
    // The closed days summarised, as the page does first; today's answers have no summary yet.
    await loadInsights({ db: database.db, scope: ALL, filters: WEEK, now: NOW });
    expect((await listInsightChoices({ db: database.db, scope: ALL, now: NOW })).tools).toEqual([
      "deploy",
      "purge",
      "resize",
      "rotate-keys",
    ]);
    // A reviewer's choices keep to their groups and the any-reviewer pool, as their figures do.
    expect((await listInsightChoices({ db: database.db, scope: SRE, now: NOW })).tools).toEqual([
      "deploy",
      "rotate-keys",
    ]);
  });
});
