// Child process of the `insights` section (see bench/db-child.ts for how it runs).
import { loadInsightsView } from "@/app/admin/_lib/load-insights-view";
import { summariseClosedDays } from "@/lib/db/insight-summaries";
import { seedInsights } from "@/lib/db/testing/seed-insights";
import { periodStart } from "@/lib/domain/insights";
import type { Actor } from "@/lib/domain/roles";
import { type BenchProvider, openBenchDatabase } from "./bench-database";
import type { ResultRow } from "./bench-section";
import { childIo } from "./db-child";
import { summarize } from "./stats";

export interface InsightsQueryParams {
  provider: BenchProvider;
  answered: number;
  iterations: number;
  warmup: number;
}

export interface InsightsQueryResult {
  rows: ResultRow[];
  p50s: Record<string, number>;
  seedSeconds: number;
  /** The first read's pass over the 89 closed days of the widest period (ADR 0099). */
  summariseSeconds: number;
}

const { provider, answered, iterations, warmup } = childIo.params<InsightsQueryParams>();
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
const db = database.db;
childIo.progress(`${provider}: storing ${answered} answered requests`);
// 14 minutes past midnight UTC: the worst case, when yesterday (within the 15-minute margin,
// ADR 0099) and today are both still read live, every answer of a whole day.
const now = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 14 * 60_000;
const seedStarted = performance.now();
await seedInsights({ db, answered, now });
await db.$executeRawUnsafe("ANALYZE");
const seedSeconds = (performance.now() - seedStarted) / 1000;

const admin = await db.user.create({ data: { email: "admin@bench.test", role: "admin" } });
const reviewer = await db.user.create({ data: { email: "reviewer@bench.test", role: "reviewer" } });
for (const slug of ["sre", "ops", "finance", "legal"]) {
  const group = await db.approverGroup.create({ data: { slug, name: slug } });
  if (slug === "sre")
    await db.approverGroupMember.create({ data: { groupId: group.id, userId: reviewer.id } });
}

childIo.progress(`${provider}: summarising the closed days of 90`);
const summariseStarted = performance.now();
await summariseClosedDays({ db, now: new Date(now), since: periodStart(new Date(now), 90) });
const summariseSeconds = (performance.now() - summariseStarted) / 1000;

// The views a person opens, through the page's own loader (scope, choices, filters, figures):
// an admin's default and widest, one tool, and a reviewer of one group.
const asAdmin: Actor = { id: admin.id, role: "admin" };
const asReviewer: Actor = { id: reviewer.id, role: "reviewer" };
const views: [string, Actor, Record<string, string>][] = [
  ["admin, 30 days", asAdmin, {}],
  ["admin, 90 days", asAdmin, { days: "90" }],
  ["admin, 90 days, one tool", asAdmin, { days: "90", tool: "deploy" }],
  ["reviewer of one group, 90 days", asReviewer, { days: "90" }],
];
const times = new Map<string, number[]>(views.map(([label]) => [label, []]));
for (let i = 0; i < warmup + iterations; i++) {
  for (const [label, actor, params] of views) {
    const started = performance.now();
    const view = await loadInsightsView({ db, actor, params, now: new Date(now) });
    const elapsed = performance.now() - started;
    if (view.figures.ratesByTool.length === 0 || view.problems.length > 0)
      throw new Error(`${label}: no figures`);
    if (i >= warmup) times.get(label)!.push(elapsed);
  }
}
const rows: ResultRow[] = [...times.entries()].map(([label, values]) => {
  const s = summarize(values);
  return { label: `${provider}: insights, ${label}`, unit: "ms", p50: s.p50, p95: s.p95, n: s.n };
});
await database.drop();
await childIo.finish({
  rows,
  p50s: Object.fromEntries([...times.entries()].map(([label, values]) => [label, summarize(values).p50])),
  seedSeconds,
  summariseSeconds,
} satisfies InsightsQueryResult);
