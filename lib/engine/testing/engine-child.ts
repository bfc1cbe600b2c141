// A separate app process for the engine's crash and multi-process tests. Run with
// `node --import tsx --conditions=react-server lib/engine/testing/engine-child.ts` and these variables:
//   DATABASE_URL, MODE (start | hold | answer | recover), LOG_FILE, and per mode
//   start, hold: THREAD_ID, USER_ID, MESSAGE · answer: REQUEST_ID, ACTOR (JSON), ANSWER (JSON) ·
//   recover: RUN_IDS (comma-separated).
// `hold` is an app instance as deployed: default timers (LEASE_MS may set the lease), and a
// handover on SIGTERM.
// Tools that block never return here unless MODE is recover, so the parent can SIGKILL this
// process in the middle of a run. Lines on stdout tell the parent how far it got.
import { randomUUID } from "node:crypto";
import { createDb } from "@/lib/db/sql/client";
import { createEngine } from "../create-engine";
import type { EventBus } from "../event-bus";
import { createMemoryEventBus } from "../event-bus";
import { handOverOnTerminate } from "../hand-over-on-terminate";
import { createPostgresEventBus } from "../postgres-event-bus";
import { createScriptedClient, createScriptedToolkit, fileLog } from "./scripted-agent";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const url = env("DATABASE_URL");
const mode = env("MODE");
const instanceId = `child-${mode}-${randomUUID()}`;
const db = createDb({ url });
const bus: EventBus = url.startsWith("postgres")
  ? await createPostgresEventBus({ connectionString: url, instanceId })
  : createMemoryEventBus();
const log = fileLog(env("LOG_FILE"));
const say = (line: string) => process.stdout.write(`${line}\n`);

const engine = createEngine({
  db,
  bus,
  instanceId,
  ...(mode === "hold"
    ? process.env.LEASE_MS
      ? { leaseMs: Number(process.env.LEASE_MS) }
      : {}
    : { leaseMs: 600, recoveryIntervalMs: 100 }),
  createClient: createScriptedClient,
  createToolkit: () =>
    createScriptedToolkit({
      log,
      block:
        mode === "recover"
          ? undefined
          : (tool) => {
              say(`blocked ${tool}`);
              return new Promise<void>(() => {});
            },
    }),
});
// Only the rescuing process runs the timers: the others would otherwise adopt each other's
// lapsed runs, which is correct but makes the test's execution counts depend on timing.
if (mode === "recover" || mode === "hold") await engine.start();
if (mode === "hold") handOverOnTerminate(() => engine.stop());

if (mode === "start" || mode === "hold") {
  const { runId } = await engine.startRun({
    threadId: env("THREAD_ID"),
    userId: env("USER_ID"),
    message: env("MESSAGE"),
  });
  say(`started ${runId}`);
} else if (mode === "answer") {
  await engine.answerRequest({
    requestId: env("REQUEST_ID"),
    actor: JSON.parse(env("ACTOR")),
    answer: JSON.parse(env("ANSWER")),
  });
  say("answered");
  if (process.env.EXIT_WHEN_IDLE) {
    await engine.idle();
    await engine.stop();
    await bus.close();
    await db.$disconnect();
    say("exited");
  }
} else if (mode === "recover") {
  const runIds = env("RUN_IDS").split(",");
  for (;;) {
    const runs = await db.run.findMany({ where: { id: { in: runIds } }, select: { status: true } });
    if (runs.length === runIds.length && runs.every((run) => run.status === "done")) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await engine.stop();
  await bus.close();
  await db.$disconnect();
  say("recovered");
}
