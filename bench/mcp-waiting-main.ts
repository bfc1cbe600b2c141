// Child of the `mcp-waiting` section (see bench/db-child.ts), started with --expose-gc: the MCP
// server at /api/mcp as the app serves it (the engine, SQLite, a real HTTP server), idle after a
// warm-up, then in each round with ever more tool calls of one token waiting for answers, the
// heap after forced GC measured at each step, and all of them answered before the next round.
import { fork } from "node:child_process";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { serveMcp } from "@/app/api/mcp/_lib/serve-mcp";
import { serveOverHttp } from "@/app/api/mcp/_lib/testing/serve-over-http";
import { waitingCallsOf } from "@/app/api/mcp/_lib/waiting-calls";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { createApiToken } from "@/lib/db/api-tokens";
import { openBenchDatabase } from "./bench-database";
import { startBenchEngine } from "./bench-engine";
import { seedBenchPeople } from "./bench-people";
import { childIo } from "./db-child";
import type { ClientsMessage, ClientsStart } from "./mcp-waiting-clients";
import type { MemorySample } from "./memory-parked-main";

export interface McpWaitingParams {
  calls: number;
  /** The calls are added in this many equal batches, the heap measured after each. */
  steps: number;
  rounds: number;
  warmupCalls: number;
}

export interface McpWaitingRound {
  /** Heap after forced GC (median of three samples) with this many calls waiting; the first is 0. */
  points: { waiting: number; heapUsedMb: number; rssMb: number }[];
  /** The least-squares slope of heap over waiting calls. */
  kbPerCall: number;
}

export interface McpWaitingResult {
  rounds: McpWaitingRound[];
  answered: number;
}

const { calls, steps, rounds, warmupCalls } = childIo.params<McpWaitingParams>();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("start this process with --expose-gc");

const once = async (): Promise<MemorySample> => {
  // Twice, with a pause: objects freed by the first pass's finalizers go in the second.
  gc();
  await delay(200);
  gc();
  await delay(300);
  const usage = process.memoryUsage();
  return { rssMb: usage.rss / 1024 ** 2, heapUsedMb: usage.heapUsed / 1024 ** 2 };
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** Three samples' median: one sample is sometimes taken while a timer's work is still in the heap. */
const sample = async (): Promise<MemorySample> => {
  const taken = [await once(), await once(), await once()];
  return { heapUsedMb: median(taken.map((t) => t.heapUsedMb)), rssMb: median(taken.map((t) => t.rssMb)) };
};

const database = await openBenchDatabase("sqlite");
childIo.cleanUpOnFailure(() => database.drop());
const { db } = database;
const people = await seedBenchPeople({ db, threads: 0 });
const minted = mintApiToken();
const created = await createApiToken({
  db,
  userId: people.owner.id,
  name: "bench",
  scopes: ["requests:write", "requests:read"],
  expiresAt: null,
  limit: 20,
  ...minted,
});
if (created.status !== "created") throw new Error("no token");
const tokenId = created.row.id;
const bench = await startBenchEngine(database);
const server = await serveOverHttp((request) =>
  serveMcp(request, { db, engine: bench.engine, bus: bench.bus }),
);

const clients = fork(path.join(import.meta.dirname, "mcp-waiting-clients.ts"), {
  execArgv: ["--import", "tsx"],
});
childIo.cleanUpOnFailure(async () => void clients.kill());
const batches = new Map<string, (message: Extract<ClientsMessage, { type: "done" }>) => void>();
await new Promise<void>((resolve) =>
  clients.on("message", (message: ClientsMessage) => {
    if (message.type === "ready") resolve();
    else batches.get(message.tag)?.(message);
  }),
);
const waits = waitingCallsOf({ db, bus: bench.bus });

/** Sends `count` more calls, and returns once `total` calls wait, each on its open request. */
async function addCalls(count: number, total: number, tag: string): Promise<{ done: Promise<void> }> {
  let failed: string | undefined;
  const done = new Promise<void>((resolve, reject) =>
    batches.set(tag, (message) => {
      if (message.results === count) resolve();
      else {
        failed = `calls failed: ${message.failures.join("; ")}`;
        reject(new Error(failed));
      }
    }),
  );
  done.catch(() => {});
  clients.send({ url: server.url, token: minted.token, calls: count, tag } satisfies ClientsStart);
  const until = Date.now() + 180_000;
  while (waits.count(tokenId) < total || (await db.request.count({ where: { status: "open" } })) < total) {
    if (failed || Date.now() > until) {
      throw new Error(failed ?? `only ${waits.count(tokenId)} of ${total} calls are waiting`);
    }
    await delay(100);
  }
  // Let the last calls pass from making their request to waiting on it.
  await delay(500);
  // Wrapped: an async function returning the promise itself would wait for it.
  return { done };
}

async function answerAll(): Promise<number> {
  const open = await db.request.findMany({ where: { status: "open" }, select: { id: true } });
  for (const { id } of open) {
    await bench.engine.answerRequest({ requestId: id, actor: people.reviewer, answer: { ok: true } });
  }
  return open.length;
}

function slopeKbPerCall(points: McpWaitingRound["points"]): number {
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.waiting, 0) / n;
  const my = points.reduce((sum, p) => sum + p.heapUsedMb, 0) / n;
  const sxy = points.reduce((sum, p) => sum + (p.waiting - mx) * (p.heapUsedMb - my), 0);
  const sxx = points.reduce((sum, p) => sum + (p.waiting - mx) ** 2, 0);
  return (sxy / sxx) * 1024;
}

/** One round: idle, then `steps` batches up to `size` calls, the heap measured after each; then answered. */
async function round(
  size: number,
  tag: string,
  measure: boolean,
): Promise<McpWaitingRound & { answered: number }> {
  const points: McpWaitingRound["points"] = [];
  const record = async (waiting: number) => {
    if (measure) points.push({ waiting, ...(await sample()) });
  };
  await record(0);
  const batch = Math.ceil(size / (measure ? steps : 1));
  const finished: Promise<void>[] = [];
  for (let total = 0, i = 0; total < size; i += 1) {
    const count = Math.min(batch, size - total);
    total += count;
    finished.push((await addCalls(count, total, `${tag}-${i}`)).done);
    await record(total);
  }
  const answered = await answerAll();
  await Promise.all(finished);
  await until(async () => waits.count(tokenId) === 0);
  return { points, kbPerCall: measure ? slopeKbPerCall(points) : 0, answered };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await delay(50);
}

// The warm-up loads every code path a serving instance has loaded, and leaves nothing waiting.
await round(warmupCalls, "warmup", false);
const measured: McpWaitingRound[] = [];
let answered = 0;
for (let r = 1; r <= rounds; r += 1) {
  childIo.progress(`round ${r} of ${rounds}: ${calls} calls in ${steps} steps`);
  const result = await round(calls, `round${r}`, true);
  if (result.answered !== calls) throw new Error(`expected ${calls} open requests, found ${result.answered}`);
  answered += result.answered;
  measured.push({ points: result.points, kbPerCall: result.kbPerCall });
}
clients.kill();
await server.close();
await bench.close();
await database.drop();
await childIo.finish({ rounds: measured, answered } satisfies McpWaitingResult);
