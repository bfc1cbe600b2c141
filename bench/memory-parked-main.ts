// Child process of the `memory-parked` section, started with --expose-gc (see bench/db-child.ts).
import { setTimeout as delay } from "node:timers/promises";
import { openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { seedBenchPeople } from "./bench-people";
import { childIo } from "./db-child";

export interface MemoryParkedParams {
  runs: number;
  warmupRuns: number;
  /** Runs started together before waiting for them to park: the server's load, not a queue. */
  batch: number;
}

export interface MemorySample {
  rssMb: number;
  heapUsedMb: number;
}

export interface MemoryParkedResult {
  atRest: MemorySample;
  /** After GC with half the runs parked: growth that is per run shows up here at half size. */
  halfwayGc: MemorySample;
  afterParking: MemorySample;
  afterParkingGc: MemorySample;
  parked: number;
  openRequests: number;
}

const { runs, warmupRuns, batch } = childIo.params<MemoryParkedParams>();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("start this process with --expose-gc");

const sample = (): MemorySample => {
  const usage = process.memoryUsage();
  return { rssMb: usage.rss / 1024 ** 2, heapUsedMb: usage.heapUsed / 1024 ** 2 };
};
const collect = async () => {
  // Twice, with a pause: objects freed by the first pass's finalizers go in the second.
  gc();
  await delay(200);
  gc();
  await delay(300);
};

const database = await openBenchDatabase("sqlite");
childIo.cleanUpOnFailure(() => database.drop());
const people = await seedBenchPeople({ db: database.db, threads: warmupRuns + runs });
const bench = await startBenchEngine(database);
let nextThread = 0;
const park = async (count: number) => {
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    await Promise.all(
      Array.from({ length: size }, () =>
        bench.engine.startRun({
          threadId: people.threadIds[nextThread++]!,
          userId: people.owner.id,
          message: "deploy please",
        }),
      ),
    );
    await bench.engine.idle();
    // The bench agent's own timing marks are not the engine's memory.
    bench.marks.clear();
  }
};

// Warm-up parks load every code path and fill the query caches a serving process would have.
await park(warmupRuns);
await collect();
const atRest = sample();
childIo.progress(`parking ${runs} runs`);
const half = Math.floor(runs / 2);
await park(half);
await collect();
const halfwayGc = sample();
await park(runs - half);
const afterParking = sample();
await collect();
const afterParkingGc = sample();
const parked = await database.db.run.count({ where: { status: "pending" } });
const openRequests = await database.db.request.count({ where: { status: "open" } });
await bench.close();
await database.drop();
await childIo.finish({
  atRest,
  halfwayGc,
  afterParking,
  afterParkingGc,
  parked,
  openRequests,
} satisfies MemoryParkedResult);
