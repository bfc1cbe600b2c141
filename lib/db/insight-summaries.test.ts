import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InsightFilters } from "@/lib/domain/insights";
import { readDaySummaries, summariseAnswersBetween, summariseClosedDays } from "./insight-summaries";
import { loadInsights } from "./insights";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2030, 0, day, hour, minute));
const WEEK: InsightFilters = { days: 7, tool: undefined, group: undefined };
const sorted = <T extends { tool: string; group: string }>(rows: T[]) =>
  [...rows].sort((a, b) => `${a.tool}/${a.group}`.localeCompare(`${b.tool}/${b.group}`));

const root = path.resolve(import.meta.dirname, "../..");

/** A summarising pass in a process of its own, as another instance of the app runs it. */
function startPass(url: string, now: Date, since: Date) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "lib/db/testing/summarise-in-child.ts",
      url,
      now.toISOString(),
      since.toISOString(),
    ],
    { cwd: root },
  );
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error("the summarising pass exited early");
  return value;
}

let counter = 0;
/** One answered request: asked `minutes` before `answeredAt`. */
async function answer(
  db: TestDatabase["db"],
  tool: string,
  group: string,
  answeredAt: Date,
  minutes: number,
) {
  counter += 1;
  const id = `r${counter}`;
  const thread = await db.thread.create({ data: { userId: "u-owner", kind: "request" } });
  await db.request.create({
    data: {
      id,
      requestId: `pnd-${id}`,
      threadId: thread.id,
      ownerId: "u-owner",
      toolCallId: "c1",
      toolName: tool,
      args: {},
      kind: "approval",
      prompt: "Go?",
      payload: {},
      audience: "group",
      audienceGroup: group,
      status: "answered",
      createdAt: new Date(answeredAt.getTime() - minutes * 60_000),
    },
  });
  await db.answer.create({
    data: { requestRowId: id, ok: minutes % 2 === 0, toolName: tool, createdAt: answeredAt },
  });
}

describe.each<TestProvider>(["sqlite", "postgres"])("insight day summaries on %s", (provider) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(provider);
    await database.db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    for (const minutes of [3, 8, 13, 21, 34]) await answer(database.db, "deploy", "sre", at(8, 9), minutes);
    for (const minutes of [2, 90]) await answer(database.db, "email", "ops", at(8, 23, 59), minutes);
    await answer(database.db, "deploy", "ops", at(9, 12), 7);
  });
  afterEach(async () => {
    await database?.drop();
  });

  it("summarises each closed day exactly once when two instances race", async () => {
    const now = at(10, 12);
    const since = at(4, 0);
    const passes = [0, 1].map(() => startPass(database.url, now, since));
    for (const pass of passes) expect(await nextLine(pass.lines)).toBe("ready");
    for (const pass of passes) pass.child.stdin.write("go\n");
    const [first, second] = (await Promise.all(passes.map((pass) => nextLine(pass.lines)))).map(
      (line) => JSON.parse(line) as string[],
    );
    const days = ["2030-01-04", "2030-01-05", "2030-01-06", "2030-01-07", "2030-01-08", "2030-01-09"];
    expect([...(first ?? []), ...(second ?? [])].sort()).toEqual(days);
    expect(first?.filter((day) => second?.includes(day))).toEqual([]);
    const stored = await database.db.insightDay.findMany({ orderBy: { day: "asc" } });
    expect(stored.map((row) => row.day)).toEqual(days);
    // 8 Jan: deploy/sre and email/ops; 9 Jan: deploy/ops.
    expect(await database.db.insightDaySummary.count()).toBe(3);
    expect(await summariseClosedDays({ db: database.db, now, since })).toEqual([]);
  });

  it("stores for a closed day what reading its answers live gives", async () => {
    await summariseClosedDays({ db: database.db, now: at(10, 12), since: at(8, 0) });
    const stored = await readDaySummaries({
      db: database.db,
      scope: { kind: "all" },
      from: at(8, 0),
      until: at(9, 0),
      tool: undefined,
      group: undefined,
    });
    const live = await summariseAnswersBetween({ db: database.db, from: at(8, 0), until: at(9, 0) });
    expect(stored).toHaveLength(2);
    expect(sorted(stored)).toEqual(sorted(live));
    const deploy = stored.find((row) => row.tool === "deploy");
    expect([deploy?.approved, deploy?.declined, deploy?.slowestMs]).toEqual([2, 3, 34 * 60_000]);
  });

  it("reads today's answers live, up to now", async () => {
    const now = at(10, 12);
    await answer(database.db, "deploy", "sre", at(10, 11), 4);
    await answer(database.db, "deploy", "sre", at(10, 13), 4);
    const figures = await loadInsights({ db: database.db, scope: { kind: "all" }, filters: WEEK, now });
    expect(figures.byTool.filter((point) => point.day === "2030-01-10")).toEqual([
      { day: "2030-01-10", series: "deploy", answers: 1, p50Minutes: 4, p90Minutes: 4 },
    ]);
    expect(await database.db.insightDay.findUnique({ where: { day: "2030-01-10" } })).toBeNull();
    expect(figures.ratesByTool.find((rate) => rate.tool === "deploy")?.answers).toBe(7);
  });

  it("leaves a day unsummarised until 15 minutes after it ended, so late answers count", async () => {
    const early = await loadInsights({
      db: database.db,
      scope: { kind: "all" },
      filters: WEEK,
      now: at(10, 0, 14),
    });
    expect(await database.db.insightDay.findUnique({ where: { day: "2030-01-09" } })).toBeNull();
    expect(await database.db.insightDay.findUnique({ where: { day: "2030-01-08" } })).not.toBeNull();
    expect(early.byTool.filter((point) => point.day === "2030-01-09")).toHaveLength(1);
    // Written by an instance whose clock runs behind, after the first read.
    await answer(database.db, "email", "ops", at(9, 23, 58), 5);
    await loadInsights({ db: database.db, scope: { kind: "all" }, filters: WEEK, now: at(10, 0, 16) });
    const stored = await readDaySummaries({
      db: database.db,
      scope: { kind: "all" },
      from: at(9, 0),
      until: at(10, 0),
      tool: "email",
      group: undefined,
    });
    expect(stored.map((row) => [row.tool, row.group, row.approved + row.declined])).toEqual([
      ["email", "ops", 1],
    ]);
  });
});
