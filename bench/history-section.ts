import type { BenchProvider } from "./bench-database";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { HistoryParams, HistoryResult } from "./history-main";
import { sizesFromEnv } from "./sizes";

const FULL_SIZES = [0, 10, 100, 1_000];
const SMOKE_SIZES = [0, 10];
const GROWTH = 1.3;

/** Issue target 2: park and answer → retry cost the same however long the conversation is. */
export const historySection: BenchSection = {
  name: "history",
  title: "History sweep: park and answer → retry with 0 / 10 / 100 / 1,000 messages of history",
  async run({ iterations, warmup, smoke, log }) {
    const sizes = sizesFromEnv("BENCH_HISTORY_SIZES", smoke ? SMOKE_SIZES : FULL_SIZES);
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    for (const provider of ["sqlite", "postgres"] as BenchProvider[]) {
      const params: HistoryParams = {
        provider,
        sizes,
        cycles: smoke ? 1 : Math.min(iterations, 40),
        warmup: smoke ? 0 : Math.min(warmup, 10),
      };
      const result = await runDbChild<HistoryResult>({ script: "bench/history-main.ts", params, log });
      rows.push(...result.rows);
      // The measure: the longest history against ten messages (or the shortest swept).
      const base = sizes.includes(10) ? 10 : sizes[0]!;
      const top = sizes.at(-1)!;
      if (top !== base)
        for (const [what, figures] of [
          ["park", result.park],
          ["answer → retry", result.retry],
        ] as const)
          comparisons.push(
            compare(
              `${provider} ${what} p50 at ${top} messages / at ${base}`,
              figures[top]! / figures[base]!,
              GROWTH,
            ),
          );
    }
    return {
      status: "done",
      rows,
      comparisons,
      notes: [
        "Each thread holds its past conversation before its run starts (alternating user and assistant messages of about 60 and 270 characters, inserted as Message rows); the run reads it as history, the model sees it, and park and finish store the transcript.",
        "One process per database; up to 40 cycles per size after up to 10 warm-up, the sizes in turn (round robin, alternating direction) so machine drift lands on every size alike. Every run must end done, and each thread must hold its past messages plus the run's four afterwards.",
        "Sizes come from BENCH_HISTORY_SIZES (comma-separated), default 0,10,100,1000; the smoke pass uses 0,10.",
      ],
    };
  },
};
