import type { BenchProvider } from "./bench-database";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { runDbChild } from "./db-child";
import type { ParkResumeParams, ParkResumeResult } from "./park-resume-main";

const PARK_TARGET_MS = 5;
const RETRY_TARGET_MS = 10;
const CONCURRENCY = 32;

/** Results 3 in docs/benchmarks.md: park and resume through the engine, on both databases. */
export const durableParkResumeSection: BenchSection = {
  name: "durable-park-resume",
  title: "Durable park/resume through the engine (SQLite, PostgreSQL)",
  async run({ iterations, warmup, smoke, log }) {
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    const failureNotes: string[] = [];
    for (const provider of ["sqlite", "postgres"] as BenchProvider[]) {
      const params: ParkResumeParams = {
        provider,
        iterations,
        warmup,
        // A smoke run only proves the concurrent path works: a few workers, one cycle each.
        concurrentCycles: smoke ? 4 : iterations,
        concurrency: smoke ? 4 : CONCURRENCY,
      };
      const result = await runDbChild<ParkResumeResult>({ script: "bench/park-resume-main.ts", params, log });
      rows.push(...result.rows);
      for (const [message, count] of Object.entries(result.failures))
        failureNotes.push(`${provider}: ${count} concurrent cycle(s) failed: ${message}`);
      // Ratios to the target: below 1 means the target is met.
      if (provider === "sqlite")
        comparisons.push(
          compare(`sqlite park p50 / ${PARK_TARGET_MS} ms target`, result.parkP50 / PARK_TARGET_MS, 1),
        );
      comparisons.push(
        compare(
          `${provider} answer → retry p50 / ${RETRY_TARGET_MS} ms target`,
          result.retryP50 / RETRY_TARGET_MS,
          1,
        ),
      );
    }
    return {
      status: "done",
      rows,
      comparisons,
      notes: [
        "Each database is fresh (temp SQLite file; new PostgreSQL database on 127.0.0.1:5432), migrated as a server does, and used by one engine in its own process with its timers running.",
        "The model is an in-process function (createInProcessDriver), so the figures are the engine's own cost: one approval tool suspends, a reviewer answers through engine.answerRequest, the tool is retried and the model answers.",
        "Park = the tool returns pending() → the run's park transaction commits → the subscriber of the thread receives the `pending` event. The event is published only after the commit.",
        "Every cycle starts on a fresh thread with a subscriber attached, as a chat viewer would be. One at a time, a run that does not end `done` fails the section; at concurrency 32 failed cycles are counted and left out of the rate.",
        "On PostgreSQL, rows and transactions per cycle are the database's own counts (pg_stat_database) around the one-at-a-time cycles: exact for rows, whatever the machine's load, so two commits compare by them without noise; transactions include the engine's timers (a few per second of the run).",
        "PostgreSQL uses the app's default pool (DATABASE_POOL_MAX, default 10 connections) and the LISTEN/NOTIFY bus, as the web server does.",
        ...failureNotes,
      ],
    };
  },
};
