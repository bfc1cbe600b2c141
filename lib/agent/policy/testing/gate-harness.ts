import { randomUUID } from "node:crypto";
import {
  createClientFromDriver,
  createInProcessDriver,
  createToolkit,
  defineTool,
  type InProcessReply,
  type ModelInput,
  type Tool,
} from "toolnexus";
import type { DbClient } from "@/lib/db/db-types";
import { type People, seedPeople } from "@/lib/db/testing/seed-people";
import type { Actor } from "@/lib/domain/roles";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine, EngineToolkit, SubmittedAnswer } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { createDbPolicyStore } from "../db-policy-store";
import { gateToolkit } from "../gate-toolkit";

// A real engine over a real database with the approval gate in front of three recording tools,
// one per annotation default, and a model that plays the turns its user message spells out.

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

export interface Execution {
  tool: string;
  args: Record<string, unknown>;
}

function recordingTools(log: Execution[]): Tool[] {
  const recorder = (name: string, annotations: Tool["annotations"], properties: Record<string, unknown>) =>
    defineTool({
      name,
      description: `Records that ${name} ran.`,
      ...(annotations ? { annotations } : {}),
      inputSchema: { type: "object", properties, additionalProperties: false },
      run: (args) => {
        log.push({ tool: name, args });
        return `${name} ran with ${JSON.stringify(args)}`;
      },
    });
  return [
    recorder("lookup", { readOnlyHint: true }, { query: { type: "string" } }),
    recorder("wipe", { destructiveHint: true }, { target: { type: "string", title: "Target" } }),
    recorder("tweak", undefined, { value: { type: "number", title: "Value" } }),
  ];
}

/** The user message is the JSON list of turns; after the last one the model reports the results. */
function plan(input: ModelInput): InProcessReply {
  const lastUser = input.messages.findLastIndex((message) => message.role === "user");
  const turns = JSON.parse((input.messages[lastUser] as { content: string }).content) as PlannedCall[][];
  const since = input.messages.slice(lastUser + 1);
  const done = since.filter((message) => message.role === "assistant" && message.toolCalls?.length).length;
  if (done < turns.length) return { toolCalls: turns[done]! };
  const outputs = since.flatMap((message) => (message.role === "tool" ? [message.content] : []));
  return { text: `finished: ${outputs.join(" | ")}` };
}

export interface GateHarness {
  db: DbClient;
  engine: Engine;
  log: Execution[];
  /** The tool names the model was offered, one entry per model call. */
  offered: string[][];
  people: People & { threadId: string };
  /** Starts a run in the harness's thread (or `threadId`) and waits until it parks or ends. */
  run(turns: PlannedCall[][], threadId?: string): Promise<string>;
  openApproval(runId: string): Promise<{ id: string; audience: string; data: Record<string, unknown> }>;
  answer(requestId: string, actor: Actor, answer: SubmittedAnswer): Promise<void>;
  finalText(runId: string): Promise<string>;
  close(): Promise<void>;
}

/** `extraTools` go behind the gate beside the three recording ones. */
export async function createGateHarness(
  db: DbClient,
  { extraTools = [] }: { extraTools?: Tool[] } = {},
): Promise<GateHarness> {
  const log: Execution[] = [];
  const offered: string[][] = [];
  const bus = createMemoryEventBus();
  const client = createClientFromDriver(
    createInProcessDriver({
      model: "gate-test-model",
      generate: (input) => {
        offered.push(input.tools.map((tool) => tool.name));
        return plan(input);
      },
    }),
  );
  const engine = createEngine({
    db,
    bus,
    instanceId: `gate-test-${randomUUID()}`,
    createClient: () => client,
    createToolkit: async ({ userId, runId, threadId }): Promise<EngineToolkit> =>
      gateToolkit(
        await createToolkit({ builtins: false, extraTools: [...recordingTools(log), ...extraTools] }),
        {
          store: createDbPolicyStore({ db }),
          thread: { threadId, ownerId: userId },
          runId,
          approvalExpiresAt: () => new Date(Date.now() + 3_600_000).toISOString(),
        },
      ),
    textFlushMs: 0,
  });
  const people = await seedPeople(db);
  return {
    db,
    engine,
    log,
    offered,
    people,
    async run(turns, threadId = people.threadId) {
      const { runId } = await engine.startRun({
        threadId,
        userId: people.owner.id,
        message: JSON.stringify(turns),
      });
      await engine.idle();
      return runId;
    },
    async openApproval(runId) {
      const row = await db.request.findFirstOrThrow({ where: { runId, status: "open" } });
      return { id: row.id, audience: row.audience, data: row.data as Record<string, unknown> };
    },
    async answer(requestId, actor, answer) {
      await engine.answerRequest({ requestId, actor, answer });
      await engine.idle();
    },
    async finalText(runId) {
      const event = await db.event.findFirstOrThrow({ where: { runId, type: "run_finished" } });
      return String((event.payload as { text?: unknown }).text);
    },
    async close() {
      await engine.idle();
      await engine.stop();
      await bus.close();
    },
  };
}
