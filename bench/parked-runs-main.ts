// Child process of the `parked-runs` section (see bench/db-child.ts for how it runs): one
// database holding `parked` waiting runs, and the engine's start-up, sweeps, claims and cycles
// timed on top of them, with the event loop's lag watched throughout.

import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { claimParkedRun } from "@/lib/db/run-leases";
import { seedParkedRuns } from "@/lib/db/testing/seed-parked-runs";
import { type BenchProvider, openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { seedBenchPeople } from "./bench-people";
import type { ResultRow } from "./bench-section";
import { childIo } from "./db-child";
import { type CycleTimings, runParkResumeCycle } from "./park-resume-cycle";
import { summarize } from "./stats";

export interface ParkedRunsParams {
  provider: BenchProvider;
  parked: number;
  /** Calls of each sweep, one after another. */
  sweeps: number;
  cycles: number;
}

export interface ParkedRunsResult {
  rows: ResultRow[];
  seedSeconds: number;
  startupMs: number;
  /** The slowest single sweep or claim, of any kind. */
  worstMs: number;
  retryP50: number;
  /** The longest the event loop was held, in ms, from engine start to the last cycle. */
  lagMaxMs: number;
  /** The same after start-up and three warm-up cycles. */
  steadyLagMaxMs: number;
}

const { provider, parked, sweeps, cycles } = childIo.params<ParkedRunsParams>();
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
childIo.progress(`${provider}: inserting ${parked} parked runs`);
const seedStarted = performance.now();
const seeded = await seedParkedRuns({ db: database.db, count: parked });
// Statistics as a live database has them (PostgreSQL's autovacuum would gather them in time).
await database.db.$executeRawUnsafe("ANALYZE");
const seedSeconds = (performance.now() - seedStarted) / 1000;
const WARMUP_CYCLES = 3;
const people = await seedBenchPeople({ db: database.db, threads: cycles + WARMUP_CYCLES });

// Resolution 1 ms: a block of a few ms must show, not be rounded into the 10 ms default.
// Start-up is watched on its own: it is when every query is used for the first time.
const startupLag = monitorEventLoopDelay({ resolution: 1 });
startupLag.enable();
const startupStarted = performance.now();
const bench = await startBenchEngine(database);
const startupMs = performance.now() - startupStarted;
// On SQLite start-up can finish without the loop turning once; the histogram's timer then fires
// only now, and records how long it was held. Without this it would record nothing at all.
await delay(5);
startupLag.disable();
const cycle = (threadId: string) =>
  runParkResumeCycle({
    engine: bench.engine,
    marks: bench.marks,
    threadId,
    owner: people.owner,
    reviewer: people.reviewer,
  });
// A few cycles first, as a serving process has had: the first use of each query shape is a
// one-off cost of the process, not of the runs waiting.
for (let i = 0; i < WARMUP_CYCLES; i++) await cycle(people.threadIds[cycles + i]!);
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();

const timed = async (work: () => Promise<unknown>) => {
  const values: number[] = [];
  for (let i = 0; i < sweeps; i++) {
    const started = performance.now();
    await work();
    values.push(performance.now() - started);
  }
  return values;
};
childIo.progress(`${provider}: ${sweeps} sweeps of each kind, then ${cycles} cycles`);
const recovery = await timed(async () => {
  const taken = await bench.engine.recoverRuns();
  if (taken !== 0) throw new Error(`the recovery sweep took over ${taken} run(s) that were waiting`);
});
const expiry = await timed(async () => {
  const expired = await bench.engine.expireDueRequests();
  if (expired !== 0) throw new Error(`the expiry sweep expired ${expired} request(s) that never expire`);
});
const leaseExpiresAt = new Date(Date.now() + 60_000);
const refused = await timed(async () => {
  const claimed = await claimParkedRun({
    db: database.db,
    runId: seeded.waitingRunId,
    leaseOwner: "bench",
    leaseExpiresAt,
  });
  if (claimed) throw new Error("a run still waiting on its request was claimed");
});
const sequential: CycleTimings[] = [];
for (let i = 0; i < cycles; i++) sequential.push(await cycle(people.threadIds[i]!));
await delay(5);
lag.disable();
await bench.close();
const stillParked = await database.db.run.count({ where: { status: "pending", openRequests: 1 } });
if (stillParked !== parked) throw new Error(`${parked} runs were parked, ${stillParked} still are`);
await database.drop();

const label = (what: string) => `${provider} @ ${parked.toLocaleString("en")} parked: ${what}`;
const ms = (what: string, values: number[]): ResultRow => {
  const s = summarize(values);
  return { label: label(what), unit: "ms", p50: s.p50, p95: s.p95, n: s.n };
};
const claims = sequential.map((t) => t.answerReturnedAt - t.answerSentAt);
const retry = sequential.map((t) => t.retriedAt - t.answerSentAt);
const rows: ResultRow[] = [
  { label: label("engine start-up (first recovery and expiry sweeps)"), unit: "ms", p50: startupMs, n: 1 },
  ms("recovery sweep", recovery),
  ms("expiry sweep", expiry),
  ms("parked-run claim refused (request still open)", refused),
  ms("answer claimed (answerRequest returns)", claims),
  ms("answer → tool retried", retry),
  ms(
    "suspension → pending event delivered",
    sequential.map((t) => t.pendingDeliveredAt - t.suspendedAt),
  ),
  {
    label: label("event-loop lag during start-up, max"),
    unit: "ms",
    p50: startupLag.max / 1e6,
    n: startupLag.count,
  },
  { label: label("event-loop lag after start-up, max"), unit: "ms", p50: lag.max / 1e6, n: lag.count },
  {
    label: label("event-loop lag after start-up, p99"),
    unit: "ms",
    p50: lag.percentile(99) / 1e6,
    n: lag.count,
  },
];
await childIo.finish({
  rows,
  seedSeconds,
  startupMs,
  worstMs: Math.max(startupMs, ...recovery, ...expiry, ...refused, ...claims),
  retryP50: summarize(retry).p50,
  lagMaxMs: Math.max(startupLag.max, lag.max) / 1e6,
  steadyLagMaxMs: lag.max / 1e6,
} satisfies ParkedRunsResult);
