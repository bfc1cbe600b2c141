// Child process of the `history` section (see bench/db-child.ts for how it runs): the same
// park/answer cycle on threads that already hold 0, 10, 100 or 1,000 messages.

import type { Message } from "toolnexus";
import { toMessageContent } from "@/lib/db/messages";
import { type BenchProvider, openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { seedBenchPeople } from "./bench-people";
import type { ResultRow } from "./bench-section";
import { childIo } from "./db-child";
import { type CycleTimings, runParkResumeCycle } from "./park-resume-cycle";
import { summarize } from "./stats";

export interface HistoryParams {
  provider: BenchProvider;
  sizes: number[];
  /** Cycles per size, after `warmup` more per size. */
  cycles: number;
  warmup: number;
}

export interface HistoryResult {
  rows: ResultRow[];
  /** p50 per size, keyed by the number of messages of history. */
  park: Record<number, number>;
  retry: Record<number, number>;
}

const { provider, sizes, cycles, warmup } = childIo.params<HistoryParams>();
const database = await openBenchDatabase(provider);
childIo.cleanUpOnFailure(() => database.drop());
const perSize = cycles + warmup;
const people = await seedBenchPeople({ db: database.db, threads: perSize * sizes.length });

// A past conversation: turns of a user line and an assistant reply of a realistic length.
const pastMessage = (seq: number): Message =>
  seq % 2 === 1
    ? { role: "user", content: `Question ${seq}: what changed in the deploy since yesterday?` }
    : {
        role: "assistant",
        content: `Answer ${seq}: ${"the service was rolled out in two stages; ".repeat(6)}`,
      };
childIo.progress(`${provider}: history of ${sizes.join(", ")} messages on ${perSize} threads each`);
const threadsBySize = new Map<number, string[]>();
for (const [index, size] of sizes.entries())
  threadsBySize.set(size, people.threadIds.slice(index * perSize, (index + 1) * perSize));
for (const [size, threadIds] of threadsBySize) {
  if (size === 0) continue;
  for (const threadId of threadIds) {
    for (let from = 1; from <= size; from += 500) {
      const data = Array.from({ length: Math.min(500, size - from + 1) }, (_, i) => {
        const message = pastMessage(from + i);
        // Stored as the engine stores a message (keys in canonical order).
        return { threadId, seq: from + i, role: message.role, content: toMessageContent(message) };
      });
      await database.db.message.createMany({ data });
    }
  }
}

const bench = await startBenchEngine(database);
const timings = new Map<number, CycleTimings[]>(sizes.map((size) => [size, []]));
for (let i = 0; i < perSize; i++) {
  // Round robin over the sizes, so machine drift lands on every size alike.
  for (const size of i % 2 === 0 ? sizes : [...sizes].reverse()) {
    const threadId = threadsBySize.get(size)![i]!;
    const cycle = await runParkResumeCycle({
      engine: bench.engine,
      marks: bench.marks,
      threadId,
      owner: people.owner,
      reviewer: people.reviewer,
    });
    if (i >= warmup) timings.get(size)!.push(cycle);
  }
}
await bench.close();
// The run saw its history: the transcript is the past messages plus the run's own four.
for (const [size, threadIds] of threadsBySize) {
  const stored = await database.db.message.count({ where: { threadId: threadIds[0]! } });
  if (stored !== size + 4)
    throw new Error(`a thread with ${size} past messages holds ${stored} after one run`);
}
await database.drop();

const rows: ResultRow[] = [];
const park: Record<number, number> = {};
const retry: Record<number, number> = {};
for (const size of sizes) {
  const list = timings.get(size)!;
  const parkMs = summarize(list.map((t) => t.pendingDeliveredAt - t.suspendedAt));
  const retryMs = summarize(list.map((t) => t.retriedAt - t.answerSentAt));
  const cycleMs = summarize(list.map((t) => t.finishedAt - t.startedAt));
  park[size] = parkMs.p50;
  retry[size] = retryMs.p50;
  const label = (what: string) => `${provider}, ${size} messages of history: ${what}`;
  rows.push(
    {
      label: label("park (suspension → pending event)"),
      unit: "ms",
      p50: parkMs.p50,
      p95: parkMs.p95,
      n: parkMs.n,
    },
    { label: label("answer → tool retried"), unit: "ms", p50: retryMs.p50, p95: retryMs.p95, n: retryMs.n },
    { label: label("whole cycle"), unit: "ms", p50: cycleMs.p50, p95: cycleMs.p95, n: cycleMs.n },
  );
}
await childIo.finish({ rows, park, retry } satisfies HistoryResult);
