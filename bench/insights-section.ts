import type { BenchProvider } from "./bench-database";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { InsightsQueryParams, InsightsQueryResult } from "./insights-query-main";
import { sizesFromEnv } from "./sizes";

const ANSWERED = 1_000_000;
const SMOKE_ANSWERED = 2_000;
const TARGET_MS = 500;

/** The figures of /admin/insights over a million answered requests (BENCH_INSIGHTS_ANSWERED). */
export const insightsSection: BenchSection = {
  name: "insights",
  title: "Insights over a million answered requests",
  async run({ iterations, warmup, smoke, log }) {
    const [answered = ANSWERED] = sizesFromEnv("BENCH_INSIGHTS_ANSWERED", [
      smoke ? SMOKE_ANSWERED : ANSWERED,
    ]);
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    const notes = [
      `${answered} answered requests over 90 days (BENCH_INSIGHTS_ANSWERED sets the count), five tools, four groups and the any-reviewer pool, plus one open and one expired request per hundred; inserted by the database from a generated series (lib/db/testing/seed-insights.ts), then ANALYZE.`,
      "Server time = one call of the page's loader (loadInsightsView): scope, filter choices and every figure of one view, closed days from their per-day summaries (ADR 0099), the rest read live. Timed at 00:14 UTC, the worst case: yesterday is within the 15-minute margin, so a whole day of answers is read live.",
    ];
    for (const provider of ["sqlite", "postgres"] as BenchProvider[]) {
      const params: InsightsQueryParams = {
        provider,
        answered,
        iterations: Math.min(iterations, 20),
        warmup: Math.min(warmup, 2),
      };
      const result = await runDbChild<InsightsQueryResult>({
        script: "bench/insights-query-main.ts",
        params,
        log,
      });
      rows.push(...result.rows);
      notes.push(
        `${provider}: ${answered} answered requests stored in ${result.seedSeconds.toFixed(1)} s; the closed days of 90 summarised once in ${result.summariseSeconds.toFixed(1)} s.`,
      );
      for (const [label, p50] of Object.entries(result.p50s))
        comparisons.push(compare(`${provider} ${label} p50 / ${TARGET_MS} ms target`, p50 / TARGET_MS, 1));
    }
    return { status: "done", rows, comparisons, notes };
  },
};
