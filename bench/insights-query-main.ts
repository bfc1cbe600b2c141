// Child process of the `insights` section (see bench/db-child.ts for how it runs).
import { loadInsights } from "@/lib/db/insights";
import type { InsightFilters, InsightScope } from "@/lib/domain/insights";
import { type BenchProvider, openBenchDatabase } from "./bench-database";
import type { ResultRow } from "./bench-section";
import { childIo } from "./db-child";
import { seedInsights } from "./insights-fixture";
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
}

const { provider, answered, iterations, warmup } = childIo.params<InsightsQueryParams>();
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
childIo.progress(`${provider}: storing ${answered} answered requests`);
const now = Date.now();
const seedStarted = performance.now();
await seedInsights({ db: database.db, answered, now });
const seedSeconds = (performance.now() - seedStarted) / 1000;

// The views a person opens: an admin's default and widest, a tool, and a reviewer's groups.
const views: [string, InsightScope, InsightFilters][] = [
  ["admin, 30 days", { kind: "all" }, { days: 30, tool: undefined, group: undefined }],
  ["admin, 90 days", { kind: "all" }, { days: 90, tool: undefined, group: undefined }],
  ["admin, 30 days, one tool", { kind: "all" }, { days: 30, tool: "deploy", group: undefined }],
  [
    "reviewer of one group, 30 days",
    { kind: "groups", slugs: ["sre"] },
    { days: 30, tool: undefined, group: undefined },
  ],
];
const times = new Map<string, number[]>(views.map(([label]) => [label, []]));
for (let i = 0; i < warmup + iterations; i++) {
  for (const [label, scope, filters] of views) {
    const started = performance.now();
    const figures = await loadInsights({ db: database.db, scope, filters, now: new Date(now) });
    const elapsed = performance.now() - started;
    if (figures.ratesByTool.length === 0) throw new Error(`${label}: no figures`);
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
} satisfies InsightsQueryResult);
