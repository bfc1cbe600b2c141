import { type BenchSection, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { MemoryParkedParams, MemoryParkedResult } from "./memory-parked-main";

const RUNS = 10_000;
// V8 keeps a few hundred kB of noise between two collections (inline caches, compiled code);
// more than this per 10,000 runs would be state kept per parked run.
const NOISE_BYTES_PER_RUN = 50;

/** Results 5 in docs/benchmarks.md (parked runs): what parked runs cost the process that parked them. */
export const memoryParkedSection: BenchSection = {
  name: "memory-parked",
  title: "Memory after parking 10,000 runs through the engine",
  async run({ smoke, log }) {
    const params: MemoryParkedParams = smoke
      ? { runs: 20, warmupRuns: 4, batch: 4 }
      : { runs: RUNS, warmupRuns: 200, batch: 32 };
    const result = await runDbChild<MemoryParkedResult>({
      script: "bench/memory-parked-main.ts",
      params,
      nodeArgs: ["--expose-gc"],
      log,
    });
    const expected = params.runs + params.warmupRuns;
    if (result.parked !== expected || result.openRequests !== expected)
      throw new Error(
        `expected ${expected} parked runs with an open request each, found ${JSON.stringify(result)}`,
      );
    const row = (label: string, unit: "MB RSS" | "MB heap", value: number): ResultRow => ({
      label,
      unit,
      p50: value,
      n: 1,
    });
    const retainedBytesPerRun =
      ((result.afterParkingGc.heapUsedMb - result.atRest.heapUsedMb) * 1024 ** 2) / params.runs;
    return {
      status: "done",
      rows: [
        row("engine process at rest (warmed up, after GC)", "MB RSS", result.atRest.rssMb),
        row(`after parking ${params.runs} runs`, "MB RSS", result.afterParking.rssMb),
        row(`after parking ${params.runs} runs, after GC`, "MB RSS", result.afterParkingGc.rssMb),
        row("engine process at rest (warmed up, after GC)", "MB heap", result.atRest.heapUsedMb),
        row(
          `after parking ${Math.floor(params.runs / 2)} runs, after GC`,
          "MB heap",
          result.halfwayGc.heapUsedMb,
        ),
        row(`after parking ${params.runs} runs`, "MB heap", result.afterParking.heapUsedMb),
        row(`after parking ${params.runs} runs, after GC`, "MB heap", result.afterParkingGc.heapUsedMb),
        {
          label: "heap kept per parked run (after GC)",
          unit: "bytes",
          p50: retainedBytesPerRun,
          n: params.runs,
        },
      ],
      comparisons: [
        compare(
          `heap kept per parked run / ${NOISE_BYTES_PER_RUN} B noise allowance`,
          retainedBytesPerRun / NOISE_BYTES_PER_RUN,
          1,
        ),
      ],
      notes: [
        `One engine process (SQLite, memory event bus, timers running, as the web server runs it) parks ${params.warmupRuns} runs to warm up, is measured after two forced GCs, parks ${params.runs} more (${params.batch} started at a time), and is measured again before and after GC.`,
        "Every run parks on one approval request; the section checks that all of them are parked in the database with an open request.",
        "RSS rarely shrinks after a burst (freed pages stay with the allocator), so the heap after GC is what says whether parked runs are kept in memory; the halfway sample tells state kept per run (it would grow in step) from a one-off difference.",
      ],
    };
  },
};
