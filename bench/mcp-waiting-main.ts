// Child of the `mcp-waiting` section (see bench/db-child.ts), started with --expose-gc: the MCP
// server at /api/mcp as the app serves it (the engine, SQLite, a real HTTP server), first idle
// after a warm-up, then with `calls` tool calls of one token waiting for answers.
import { fork } from "node:child_process";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { serveMcp } from "@/app/api/mcp/_lib/serve-mcp";
import { serveOverHttp } from "@/app/api/mcp/_lib/testing/serve-over-http";
import { waitingCount } from "@/app/api/mcp/_lib/waiting-calls";
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
  warmupCalls: number;
}

export interface McpWaitingResult {
  idle: MemorySample;
  waiting: MemorySample;
  waitingCalls: number;
  answered: number;
}

const { calls, warmupCalls } = childIo.params<McpWaitingParams>();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("start this process with --expose-gc");

const sample = async (): Promise<MemorySample> => {
  // Twice, with a pause: objects freed by the first pass's finalizers go in the second.
  gc();
  await delay(200);
  gc();
  await delay(300);
  const usage = process.memoryUsage();
  return { rssMb: usage.rss / 1024 ** 2, heapUsedMb: usage.heapUsed / 1024 ** 2 };
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
const finished = () =>
  new Promise<Extract<ClientsMessage, { type: "done" }>>((resolve) =>
    clients.once("message", (message) => resolve(message as Extract<ClientsMessage, { type: "done" }>)),
  );
await new Promise((resolve) => clients.once("message", resolve));

/** Starts `count` waiting calls, waits until all are waiting, and returns when they will have finished. */
async function wait(
  count: number,
  tag: string,
): Promise<{ done: Promise<{ results: number; failures: string[] }> }> {
  let ended: Extract<ClientsMessage, { type: "done" }> | undefined;
  const done = finished().then((message) => (ended = message));
  clients.send({ url: server.url, token: minted.token, calls: count, tag } satisfies ClientsStart);
  for (let waited = 0; waitingCount(tokenId) < count; waited += 50) {
    if (waited > 120_000 || ended) {
      const why = ended ? `: ${ended.failures.join("; ")}` : "";
      throw new Error(`only ${waitingCount(tokenId)} of ${count} calls are waiting${why}`);
    }
    await delay(50);
  }
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

async function round(count: number, tag: string): Promise<{ answered: number; during?: MemorySample }> {
  const { done } = await wait(count, tag);
  const during = tag === "measured" ? await sample() : undefined;
  const answered = await answerAll();
  const outcome = await done;
  if (outcome.results !== count) throw new Error(`calls failed: ${outcome.failures.join("; ")}`);
  return { answered, ...(during ? { during } : {}) };
}

// The warm-up loads every code path a serving instance has loaded, and leaves nothing waiting.
await round(warmupCalls, "warmup");
const idle = await sample();
childIo.progress(`${calls} calls waiting`);
const measured = await round(calls, "measured");
clients.kill();
await server.close();
await bench.close();
await database.drop();
await childIo.finish({
  idle,
  waiting: measured.during!,
  waitingCalls: calls,
  answered: measured.answered,
} satisfies McpWaitingResult);
