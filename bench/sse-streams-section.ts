import { rm } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { type BenchSection, type Comparison, compare, type ResultRow } from "./bench-section";
import { acquireBuildLock } from "./build-lock";
import { runDbChild } from "./db-child";
import { buildOnce, serverEnv, signIn, startBenchServer } from "./inbox-http";
import { processTreeRssBytes } from "./process-rss";
import { heapAfterGc, withHeapProbe } from "./server-heap";
import { sizesFromEnv } from "./sizes";
import { type OpenStream, openStream } from "./sse-client";
import type { SseSeedParams, SseSeedResult } from "./sse-seed-main";
import { summarize } from "./stats";

const FULL_SIZES = [200, 2_000];
const PARKED_THREADS = 100;
const OPEN_BATCH = 100;
const PAGE_SAMPLES = 40;
const MEMORY_BUDGET_MB = 100;
const PAGE_GROWTH = 1.2;

async function rssMb(pid: number): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < 5; i++) {
    values.push((await processTreeRssBytes(pid)) / 1024 ** 2);
    await delay(200);
  }
  return summarize(values).p50;
}

/** GET /inbox one at a time as the reviewer, checking every page is the reviewer's inbox. */
async function inboxPageMs(origin: string, cookie: string): Promise<number[]> {
  const values: number[] = [];
  for (let i = 0; i < PAGE_SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(`${origin}/inbox`, { headers: { cookie }, redirect: "manual" });
    const html = await res.text();
    values.push(performance.now() - started);
    if (res.status !== 200 || !html.includes("Approvals waiting for a reviewer"))
      throw new Error(`GET /inbox as the reviewer: status ${res.status}, not the reviewer's inbox`);
  }
  return values;
}

/** Issue target 5: many live chat and inbox streams on one instance. */
export const sseStreamsSection: BenchSection = {
  name: "sse-streams",
  title: "Live streams: server memory and inbox latency at 200 and 2,000 open SSE streams",
  async run({ smoke, log }) {
    if (smoke) return { status: "skipped", reason: "smoke run: streams are measured on a production build" };
    const sizes = sizesFromEnv("BENCH_SSE_STREAMS", FULL_SIZES);
    const seed = await runDbChild<SseSeedResult>({
      script: "bench/sse-seed-main.ts",
      params: { threads: PARKED_THREADS } satisfies SseSeedParams,
      log,
    });
    const rows: ResultRow[] = [];
    const comparisons: Comparison[] = [];
    const env = serverEnv(seed.databaseUrl);
    const lock = await acquireBuildLock();
    try {
      log("  next build (once per bench run)");
      const buildSeconds = await buildOnce(env);
      for (const size of sizes) {
        // A fresh server per size, so one size's garbage is never the next one's baseline.
        const probe = withHeapProbe(env, String(size));
        const server = await startBenchServer(probe.env);
        const streams: OpenStream[] = [];
        try {
          const { origin } = server;
          const owner = await signIn(origin, "alice@example.com");
          const reviewer = await signIn(origin, "rita@example.com");
          // Warm-up: the first requests load the routes' chunks and fill the query caches.
          for (let i = 0; i < 3; i++) {
            (await openStream(`${origin}/api/threads/${seed.threadIds[i]}/stream`, owner)).close();
            (await openStream(`${origin}/api/inbox/stream`, reviewer)).close();
          }
          await inboxPageMs(origin, reviewer);
          // Collected first, so the idle baseline holds no garbage and the growth is not understated.
          const idleHeap = await heapAfterGc(server.child.pid!, probe.file);
          await delay(2_000);
          const idleRss = await rssMb(server.child.pid!);
          const idlePage = summarize(await inboxPageMs(origin, reviewer));
          log(
            `  ${size} streams: half chat viewers of ${PARKED_THREADS} parked chats, half reviewer inboxes`,
          );
          for (let opened = 0; opened < size; opened += OPEN_BATCH) {
            const batch = Array.from({ length: Math.min(OPEN_BATCH, size - opened) }, (_, i) => {
              const n = opened + i;
              return n % 2 === 0
                ? openStream(
                    `${origin}/api/threads/${seed.threadIds[(n / 2) % PARKED_THREADS]}/stream`,
                    owner,
                  )
                : openStream(`${origin}/api/inbox/stream`, reviewer);
            });
            const settled = await Promise.allSettled(batch);
            for (const result of settled) if (result.status === "fulfilled") streams.push(result.value);
            const failed = settled.find((result) => result.status === "rejected");
            if (failed) throw new Error(`opening stream ${streams.length + 1} of ${size}: ${failed.reason}`);
          }
          await delay(2_000);
          const loadedRss = await rssMb(server.child.pid!);
          const loadedPage = summarize(await inboxPageMs(origin, reviewer));
          // After the figures the target is about, so its full collection disturbs none of them.
          const loadedHeap = await heapAfterGc(server.child.pid!, probe.file);
          const firstBytes = summarize(streams.map((stream) => stream.firstByteMs));
          const mb = (bytes: number) => bytes / 1024 ** 2;
          const growth = (pick: (usage: NodeJS.MemoryUsage) => number) =>
            mb(pick(loadedHeap.after) - pick(idleHeap.after));
          rows.push(
            { label: `${size} streams: server RSS idle`, unit: "MB", p50: idleRss, n: 5 },
            { label: `${size} streams: server RSS with the streams open`, unit: "MB", p50: loadedRss, n: 5 },
            { label: `${size} streams: RSS growth`, unit: "MB", p50: loadedRss - idleRss, n: size },
            {
              label: `${size} streams: live V8 heap per stream (after a full GC)`,
              unit: "KB",
              p50: (growth((usage) => usage.heapUsed) * 1024) / size,
              n: size,
            },
            {
              label: `${size} streams: garbage a full GC found with the streams open`,
              unit: "MB",
              p50: mb(loadedHeap.before.heapUsed - loadedHeap.after.heapUsed),
              n: 1,
            },
            {
              label: `${size} streams: V8 heap reserved, growth (live and free)`,
              unit: "MB",
              p50: growth((usage) => usage.heapTotal),
              n: 1,
            },
            {
              label: `${size} streams: resident memory outside V8's heap, growth`,
              unit: "MB",
              p50: growth((usage) => usage.rss - usage.heapTotal),
              n: 1,
            },
            {
              label: `${size} streams: stream open → first bytes`,
              unit: "ms",
              p50: firstBytes.p50,
              p95: firstBytes.p95,
              n: size,
            },
            {
              label: `${size} streams: GET /inbox idle`,
              unit: "ms",
              p50: idlePage.p50,
              p95: idlePage.p95,
              n: idlePage.n,
            },
            {
              label: `${size} streams: GET /inbox with the streams open`,
              unit: "ms",
              p50: loadedPage.p50,
              p95: loadedPage.p95,
              n: loadedPage.n,
            },
          );
          comparisons.push(
            compare(
              `${size} streams: RSS growth / ${MEMORY_BUDGET_MB} MB`,
              (loadedRss - idleRss) / MEMORY_BUDGET_MB,
              size >= 2_000 ? 1 : undefined,
            ),
            compare(
              `${size} streams: GET /inbox p50 loaded / idle`,
              loadedPage.p50 / idlePage.p50,
              size >= 2_000 ? PAGE_GROWTH : undefined,
            ),
          );
        } finally {
          for (const stream of streams) stream.close();
          await server.stop();
        }
      }
      return {
        status: "done",
        rows,
        comparisons,
        notes: [
          `next build into .next/bench (${buildSeconds > 0 ? `${buildSeconds.toFixed(0)} s` : "shared with an earlier section"}), then a fresh node server.mjs (the production entry) on 127.0.0.1 per size, on a SQLite file holding the demo accounts and ${PARKED_THREADS} chats of alice@example.com each parked by the engine on an approval.`,
          "Half the streams are chat viewers (GET /api/threads/<id>/stream as alice, replaying the parked run and then waiting on it), half reviewer inboxes (GET /api/inbox/stream as rita); each on a connection of its own, opened 100 at a time, each required to answer 200 with an event stream whose first bytes are events.",
          "RSS is the server's process tree (median of five samples 200 ms apart), idle two seconds after warm-up and again two seconds after the last stream opened. GET /inbox: 40 pages one at a time as the reviewer, each checked to be the reviewer's inbox.",
          "The breakdown comes from the server itself (bench/heap-probe.cjs, preloaded): a full GC before the idle RSS, and one after the loaded page samples; live heap is heapUsed after it, reserved heap heapTotal, and memory outside the heap the server process's RSS minus heapTotal, each idle vs loaded.",
          "Sizes come from BENCH_SSE_STREAMS (comma-separated), default 200,2000; the smoke pass skips this section (it needs a production build).",
        ],
      };
    } finally {
      await lock.release();
      await rm(seed.keptDirectory, { recursive: true, force: true });
    }
  },
};
