// Child process of the `langgraph-peer` section (see bench/db-child.ts for how it runs).

import path from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { sqliteFileOf } from "@/lib/db/sql/database-url";
import { type BenchProvider, openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { seedBenchPeople } from "./bench-people";
import type { ResultRow } from "./bench-section";
import { childIo } from "./db-child";
import { createPeerGraph, type PeerDurability, type PeerMarks } from "./langgraph-peer";
import { type CycleTimings, runParkResumeCycle } from "./park-resume-cycle";
import { runPeerCycle } from "./peer-cycle";
import { summarize } from "./stats";

export interface PeerParams {
  provider: BenchProvider;
  iterations: number;
  warmup: number;
  concurrentCycles: number;
  concurrency: number;
}

export interface PeerFigures {
  startToParked: number;
  answerToRetry: number;
  cycle: number;
  cyclesPerSecond: number;
}

export type PeerName = "toolnexus" | "langgraph-async" | "langgraph-sync";

export interface PeerResult {
  rows: ResultRow[];
  figures: Record<PeerName, PeerFigures>;
}

const { provider, iterations, warmup, concurrentCycles, concurrency } = childIo.params<PeerParams>();
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
// Two checkpointers, two connections (pools) to the same store: the run parks on one and is
// resumed on the other. SQLite: a file of its own next to the engine's, so neither waits on
// the other's write lock.
const connect = () =>
  provider === "sqlite"
    ? SqliteSaver.fromConnString(path.join(path.dirname(sqliteFileOf(database.url)), "langgraph.db"))
    : PostgresSaver.fromConnString(database.url);
const savers = [connect(), connect()] as const;
if (savers[0] instanceof PostgresSaver) await savers[0].setup();
const marks = new Map<string, PeerMarks>();
const createGraph = (connection: 0 | 1) => createPeerGraph(savers[connection], marks);

const total = warmup + iterations + 2 * concurrentCycles;
const people = await seedBenchPeople({ db: database.db, threads: total });
const bench = await startBenchEngine(database);
let nextThread = 0;
let nextPeerThread = 0;
const peerCycle = (durability: PeerDurability) =>
  runPeerCycle({ createGraph, marks, durability, threadId: `peer-${process.pid}-${nextPeerThread++}` });
const contenders = {
  toolnexus: () =>
    runParkResumeCycle({
      engine: bench.engine,
      marks: bench.marks,
      threadId: people.threadIds[nextThread++]!,
      owner: people.owner,
      reviewer: people.reviewer,
    }),
  // The same graph and savers in both modes; only when LangGraph writes its checkpoints differs.
  "langgraph-async": () => peerCycle("async"),
  "langgraph-sync": () => peerCycle("sync"),
} satisfies Record<PeerName, () => Promise<CycleTimings>>;
const names = Object.keys(contenders) as PeerName[];

childIo.progress(`${provider}: ${warmup} warm-up and ${iterations} alternating cycles`);
const sequential: Record<PeerName, CycleTimings[]> = {
  toolnexus: [],
  "langgraph-async": [],
  "langgraph-sync": [],
};
for (let i = 0; i < warmup + iterations; i++) {
  // Cycle by cycle, who goes first rotates, so drift lands on every contender alike.
  for (let k = 0; k < names.length; k++) {
    const name = names[(i + k) % names.length]!;
    const timings = await contenders[name]();
    if (i >= warmup) sequential[name].push(timings);
  }
}

childIo.progress(`${provider}: ${concurrentCycles} cycles each, ${concurrency} at a time`);
const concurrent = Object.fromEntries(names.map((name) => [name, { seconds: 0, cycles: 0 }])) as Record<
  PeerName,
  { seconds: number; cycles: number }
>;
// Two halves in the order A B C C B A, so none gets the quieter end of the run.
for (const name of [...names, ...[...names].reverse()]) {
  let remaining = Math.ceil(concurrentCycles / 2);
  const cycles = remaining;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (remaining > 0) {
        remaining -= 1;
        await contenders[name]();
      }
    }),
  );
  concurrent[name].seconds += (performance.now() - started) / 1000;
  concurrent[name].cycles += cycles;
}
await bench.close();
await Promise.all(savers.map((saver) => (saver instanceof PostgresSaver ? saver.end() : undefined)));
await database.drop();

const rows: ResultRow[] = [];
const figures = {} as Record<PeerName, PeerFigures>;
for (const name of names) {
  const series = {
    "start → parked (request stored, viewer told)": sequential[name].map(
      (t) => t.pendingDeliveredAt - t.startedAt,
    ),
    "answer → tool retried with the answer": sequential[name].map((t) => t.retriedAt - t.answerSentAt),
    "whole cycle, one at a time": sequential[name].map((t) => t.finishedAt - t.startedAt),
  };
  for (const [label, values] of Object.entries(series)) {
    const s = summarize(values);
    rows.push({ label: `${provider} ${name}: ${label}`, unit: "ms", p50: s.p50, p95: s.p95, n: s.n });
  }
  const rate = concurrent[name].cycles / concurrent[name].seconds;
  rows.push({
    label: `${provider} ${name}: cycles per second, concurrency ${concurrency}`,
    unit: "cycles/s",
    p50: rate,
    n: concurrent[name].cycles,
  });
  const [startToParked, answerToRetry, cycle] = Object.values(series).map((values) => summarize(values).p50);
  figures[name] = {
    startToParked: startToParked!,
    answerToRetry: answerToRetry!,
    cycle: cycle!,
    cyclesPerSecond: rate,
  };
}
await childIo.finish({ rows, figures } satisfies PeerResult);
