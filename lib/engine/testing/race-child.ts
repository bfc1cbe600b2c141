// One app instance for the race tests: its own engine and its own database client (on
// PostgreSQL its own pool and event bus), taking commands as JSON lines on stdin, so the parent
// can fire the same action from two processes at one agreed moment. Run with
// `node --import tsx --conditions=react-server lib/engine/testing/race-child.ts` and
// DATABASE_URL, LOG_FILE, BLOCK_MS (how long a blocking tool works once it may).
//
// Commands: { id, op: "start", threadId, userId, message } · { id, op: "answer", requestId,
// actor, answer, at } · { id, op: "cancel", runId, actor, at } · { id, op: "expire", at } ·
// { id, op: "escalate", at } · { id, op: "boot" } (starts the engine's timers, whose first
// sweep is done when it replies) · { id, op: "idle" } · { id, op: "exit" }. `at` is the epoch millisecond to act at. Each is
// answered by one line `reply {"id", "ok": true, "value"}` or `reply {"id", "ok": false,
// "code", "message"}`.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { createDb } from "@/lib/db/sql/client";
import { isAppError } from "@/lib/errors";
import { createEngine } from "../create-engine";
import { createMemoryEventBus, type EventBus } from "../event-bus";
import { createPostgresEventBus } from "../postgres-event-bus";
import { createScriptedClient, createScriptedToolkit, fileLog } from "./scripted-agent";

const url = process.env.DATABASE_URL ?? "";
const blockMs = Number(process.env.BLOCK_MS ?? "300");
const instanceId = `race-${randomUUID()}`;
const db = createDb({ url });
const bus: EventBus = url.startsWith("postgres")
  ? await createPostgresEventBus({ connectionString: url, instanceId })
  : createMemoryEventBus();
const log = fileLog(process.env.LOG_FILE ?? "");
const engine = createEngine({
  db,
  bus,
  instanceId,
  createClient: createScriptedClient,
  createToolkit: () =>
    createScriptedToolkit({ log, block: () => new Promise((resolve) => setTimeout(resolve, blockMs)) }),
});

type Command = { id: number; op: string; at?: number } & Record<string, unknown>;

const waitUntil = (at: number | undefined) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, (at ?? 0) - Date.now())));

async function perform(command: Command): Promise<unknown> {
  switch (command.op) {
    case "start":
      return engine.startRun(command as never);
    case "answer":
      await waitUntil(command.at);
      return engine.answerRequest(command as never);
    case "cancel":
      await waitUntil(command.at);
      return engine.cancelRun(command as never);
    case "expire":
      await waitUntil(command.at);
      return engine.expireDueRequests();
    case "escalate":
      await waitUntil(command.at);
      return engine.escalateDueRequests();
    case "boot":
      return engine.start();
    case "idle":
      return engine.idle();
    case "exit":
      await engine.stop();
      await bus.close();
      await db.$disconnect();
      setImmediate(() => process.exit(0));
      return null;
    default:
      throw new Error(`unknown op ${command.op}`);
  }
}

const reply = (body: unknown) => process.stdout.write(`reply ${JSON.stringify(body)}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const command = JSON.parse(line) as Command;
  perform(command).then(
    (value) => reply({ id: command.id, ok: true, value: value ?? null }),
    (error: unknown) =>
      reply({
        id: command.id,
        ok: false,
        code: isAppError(error) ? error.code : "unexpected",
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
process.stdout.write("ready\n");
