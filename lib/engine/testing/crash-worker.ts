// An app instance for the crash test, run as its own process (see spawn-child.ts) with
// DATABASE_URL and LOG_FILE. It runs the engine with its timers, takes commands as JSON lines on
// stdin ({ start: { threadId, userId, message } } or { answer: { requestId, actor, answer } }),
// and says on stdout where it is, so the parent can SIGKILL it at a chosen point:
//   ready · started <runId> · model (a model call began streaming) · tool (a tool began working) ·
//   pending (a tool returned a suspension: the park is next) · answered <id> · refused <id>
// Every tool execution is logged with its idempotency key, in the log file.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import {
  createClientFromDriver,
  createInProcessDriver,
  createToolkit,
  defineTool,
  type InProcessPart,
  type ModelInput,
  pending,
} from "toolnexus";
import { createDb } from "@/lib/db/sql/client";
import { createEngine } from "../create-engine";
import type { SubmittedAnswer } from "../engine-types";
import { createMemoryEventBus, type EventBus } from "../event-bus";
import { createPostgresEventBus } from "../postgres-event-bus";
import { fileLog } from "./scripted-agent";

const url = process.env.DATABASE_URL!;
const log = fileLog(process.env.LOG_FILE!);
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const instanceId = `crash-${randomUUID()}`;
const db = createDb({ url });
const bus: EventBus = url.startsWith("postgres")
  ? await createPostgresEventBus({ connectionString: url, instanceId })
  : createMemoryEventBus();

/** Turn 1 streams a few words and calls `count` and `approve`; turn 2 repeats the tool outputs. */
async function* generate(input: ModelInput): AsyncGenerator<InProcessPart> {
  say("model");
  const outputs: string[] = [];
  for (let i = input.messages.length - 1; i >= 0 && input.messages[i]!.role === "tool"; i -= 1) {
    outputs.unshift(input.messages[i]!.content);
  }
  const words = outputs.length > 0 ? ["finished:", ...outputs] : ["Working", "on", "it", "now"];
  for (const word of words) {
    yield { type: "text", delta: `${word} ` };
    await sleep(12);
  }
  if (outputs.length === 0) {
    yield { type: "tool_call", name: "count", args: {} };
    yield { type: "tool_call", name: "approve", args: {} };
  }
}

const tools = [
  defineTool({
    name: "count",
    description: "A side effect that takes a moment.",
    run: async (_args, ctx) => {
      log.record({ tool: "count", idempotencyKey: ctx?.idempotencyKey });
      say("tool");
      await sleep(30);
      return "counted";
    },
  }),
  defineTool({
    name: "approve",
    description: "Waits for a reviewer.",
    run: (_args, ctx) => {
      log.record({ tool: "approve", idempotencyKey: ctx?.idempotencyKey, answer: ctx?.answer });
      if (!ctx?.answer) {
        say("pending");
        return pending({ kind: "approval", prompt: "Go ahead?" });
      }
      return `approved ${String(ctx.answer.data?.note)}`;
    },
  }),
];

const engine = createEngine({
  db,
  bus,
  instanceId,
  leaseMs: 800,
  recoveryIntervalMs: 100,
  // SQLite has no bus between processes: look as often at rest as when busy.
  idleRecoveryIntervalMs: 100,
  createClient: () => createClientFromDriver(createInProcessDriver({ model: "crash-model", generate })),
  createToolkit: () => createToolkit({ builtins: false, extraTools: tools }),
});
await engine.start();
say("ready");

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as {
    start?: { threadId: string; userId: string; message: string };
    answer?: { requestId: string; actor: { id: string; role: "reviewer" }; answer: SubmittedAnswer };
  };
  if (command.start) {
    const { runId } = await engine.startRun(command.start);
    say(`started ${runId}`);
  } else if (command.answer) {
    const { requestId } = command.answer;
    engine.answerRequest(command.answer).then(
      () => say(`answered ${requestId}`),
      () => say(`refused ${requestId}`),
    );
  }
}
