import type { BenchProvider } from "./bench-database";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { ParkedRunsParams, ParkedRunsResult } from "./parked-runs-main";
import { sizesFromEnv } from "./sizes";

const FULL_SIZES = [1_000, 100_000, 1_000_000];
const SMOKE_SIZES = [200];
const SWEEP_BUDGET_MS = 50;
const LAG_BUDGET_MS = 20;
const RETRY_GROWTH = 1.2;

/** Issue target 1: the engine's cost does not grow with the number of runs waiting. */
export const parkedRunsSection: BenchSection = {
  name: "parked-runs",
  title: "Parked-runs sweep: start-up, sweeps, claims and event-loop lag at 1k / 100k / 1M waiting runs",
  async run({ smoke, log }) {
    const sizes = sizesFromEnv("BENCH_PARKED_RUNS", smoke ? SMOKE_SIZES : FULL_SIZES);
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    const notes: string[] = [];
    for (const provider of ["sqlite", "postgres"] as BenchProvider[]) {
      const results: ParkedRunsResult[] = [];
      for (const parked of sizes) {
        const params: ParkedRunsParams = { provider, parked, sweeps: smoke ? 2 : 20, cycles: smoke ? 2 : 60 };
        const result = await runDbChild<ParkedRunsResult>({
          script: "bench/parked-runs-main.ts",
          params,
          log,
        });
        results.push(result);
        rows.push(...result.rows);
        notes.push(
          `${provider}: ${parked.toLocaleString("en")} parked runs inserted in ${result.seedSeconds.toFixed(1)} s`,
        );
        const at = `${provider} @ ${parked.toLocaleString("en")}`;
        comparisons.push(
          compare(
            `${at}: slowest start-up, sweep or claim / ${SWEEP_BUDGET_MS} ms`,
            result.worstMs / SWEEP_BUDGET_MS,
            1,
          ),
          compare(
            `${at}: event-loop lag max, start-up included / ${LAG_BUDGET_MS} ms`,
            result.lagMaxMs / LAG_BUDGET_MS,
            1,
          ),
          compare(
            `${at}: event-loop lag max after start-up / ${LAG_BUDGET_MS} ms`,
            result.steadyLagMaxMs / LAG_BUDGET_MS,
            1,
          ),
        );
      }
      if (results.length > 1)
        comparisons.push(
          compare(
            `${provider}: answer → retry p50 at ${sizes.at(-1)!.toLocaleString("en")} / at ${sizes[0]!.toLocaleString("en")}`,
            results.at(-1)!.retryP50 / results[0]!.retryP50,
            RETRY_GROWTH,
          ),
        );
    }
    return {
      status: "done",
      rows,
      comparisons,
      notes: [
        "Each size is a fresh database in a process of its own: the parked runs (one thread, one run with openRequests = 1 and one open request each) are inserted by the database from a generated series (lib/db/testing/seed-parked-runs.ts), then ANALYZE.",
        "Start-up is startBenchEngine: the bus, engine.start() with its first recovery and expiry sweep. Then 3 warm-up cycles; then each sweep is called 20 times in a row (engine.recoverRuns, engine.expireDueRequests) and a parked-run claim of a run still waiting is refused 20 times; then 60 full park/answer cycles on fresh threads, with the engine's timers running.",
        "Event-loop lag: perf_hooks.monitorEventLoopDelay at 1 ms resolution, once over start-up and once from after the warm-up cycles to the last cycle (sweeps, refused claims and cycles); better-sqlite3 is synchronous, so on SQLite the lag includes every query. A loaded machine's scheduling shows up as lag too.",
        "Correctness: no sweep may take over or expire a waiting run, the refused claim must be refused, every cycle must end done, and at the end every seeded run must still be parked with its request open.",
        "Sizes come from BENCH_PARKED_RUNS (comma-separated), default 1000,100000,1000000; the smoke pass uses 200.",
        ...notes,
      ],
    };
  },
};
