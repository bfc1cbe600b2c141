// Child process of the `durable-park-resume` section (see bench/db-child.ts for how it runs).

import { type BenchProvider, openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { seedBenchPeople } from "./bench-people";
import type { ResultRow } from "./bench-section";
import { type DatabaseWork, databaseWorkReader, workPer } from "./database-work";
import { childIo } from "./db-child";
import { type CycleTimings, runParkResumeCycle } from "./park-resume-cycle";
import { summarize } from "./stats";

export interface ParkResumeParams {
  provider: BenchProvider;
  iterations: number;
  warmup: number;
  /** Cycles run by `concurrency` workers at once, after the sequential ones. */
  concurrentCycles: number;
  concurrency: number;
}

export interface ParkResumeResult {
  rows: ResultRow[];
  /** Why concurrent cycles failed, with how many failed that way. */
  failures: Record<string, number>;
  parkP50: number;
  retryP50: number;
}

const params = childIo.params<ParkResumeParams>();
const { provider, iterations, warmup, concurrentCycles, concurrency } = params;
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
const people = await seedBenchPeople({ db: database.db, threads: warmup + iterations + concurrentCycles });
const bench = await startBenchEngine(database);
let nextThread = 0;
const cycle = () =>
  runParkResumeCycle({
    engine: bench.engine,
    marks: bench.marks,
    threadId: people.threadIds[nextThread++]!,
    owner: people.owner,
    reviewer: people.reviewer,
  });

childIo.progress(`${provider}: ${warmup} warm-up cycles, then ${iterations} one at a time`);
for (let i = 0; i < warmup; i++) await cycle();
// On PostgreSQL the database's own counts say what one cycle writes, exactly, whatever the load.
const work = provider === "postgres" ? await databaseWorkReader(database.url) : undefined;
const workBefore = await work?.read();
const sequential: CycleTimings[] = [];
const sequentialStarted = performance.now();
for (let i = 0; i < iterations; i++) sequential.push(await cycle());
const sequentialSeconds = (performance.now() - sequentialStarted) / 1000;
const workAfter = await work?.read();
await work?.close();
const perCycle: DatabaseWork | undefined =
  workBefore && workAfter ? workPer(workBefore, workAfter, iterations) : undefined;

childIo.progress(`${provider}: ${concurrentCycles} cycles, ${concurrency} at a time`);
const concurrent: CycleTimings[] = [];
// Under load a cycle can fail (say, no pooled connection within Prisma's wait): that is a
// result to report, so the other workers carry on and the failures are counted by message.
const failures = new Map<string, number>();
let remaining = concurrentCycles;
const concurrentStarted = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (remaining > 0) {
      remaining -= 1;
      try {
        concurrent.push(await cycle());
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).trim().split("\n").at(-1)!;
        failures.set(message, (failures.get(message) ?? 0) + 1);
      }
    }
  }),
);
const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;
await bench.close();
await database.drop();

const ms = (label: string, values: number[]): ResultRow => {
  const s = summarize(values);
  return { label: `${provider}: ${label}`, unit: "ms", p50: s.p50, p95: s.p95, n: s.n };
};
const rate = (label: string, cycles: number, seconds: number): ResultRow => ({
  label: `${provider}: ${label}`,
  unit: "cycles/s",
  p50: cycles / seconds,
  n: cycles,
});
const park = sequential.map((t) => t.pendingDeliveredAt - t.suspendedAt);
const retry = sequential.map((t) => t.retriedAt - t.answerSentAt);
const rows: ResultRow[] = [
  ms("suspension → request committed → pending event delivered", park),
  ms("answer submitted → tool retried with ctx.answer", retry),
  ms(
    "answerRequest returns (claim committed)",
    sequential.map((t) => t.answerReturnedAt - t.answerSentAt),
  ),
  ms(
    "startRun called → tool suspends",
    sequential.map((t) => t.suspendedAt - t.startedAt),
  ),
  ms(
    "full cycle, one at a time",
    sequential.map((t) => t.finishedAt - t.startedAt),
  ),
  rate("full cycles per second, concurrency 1", sequential.length, sequentialSeconds),
  ms(
    `full cycle, ${concurrency} at a time`,
    concurrent.map((t) => t.finishedAt - t.startedAt),
  ),
  rate(`full cycles per second, concurrency ${concurrency}`, concurrent.length, concurrentSeconds),
  {
    label: `${provider}: cycles that failed, concurrency ${concurrency}`,
    unit: "cycles",
    p50: concurrentCycles - concurrent.length,
    n: concurrentCycles,
  },
  ...(perCycle
    ? (
        [
          ["rows inserted per cycle, one at a time", perCycle.inserted, "rows"],
          ["rows updated per cycle, one at a time", perCycle.updated, "rows"],
          ["transactions per cycle, one at a time (with the timers')", perCycle.transactions, "transactions"],
        ] as const
      ).map(([label, value, unit]) => ({ label: `${provider}: ${label}`, unit, p50: value, n: iterations }))
    : []),
];
await childIo.finish({
  rows,
  failures: Object.fromEntries(failures),
  parkP50: summarize(park).p50,
  retryP50: summarize(retry).p50,
} satisfies ParkResumeResult);
