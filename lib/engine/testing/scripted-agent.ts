import { appendFileSync } from "node:fs";
import {
  type Client,
  createClientFromDriver,
  createInProcessDriver,
  createToolkit,
  defineTool,
  type InProcessPart,
  type InProcessReply,
  type ModelInput,
  pending,
} from "toolnexus";
import type { EngineToolkit } from "../engine-types";

// A deterministic agent for engine tests: the user's message picks a script, tools record
// every execution, and the model's last turn repeats the tool outputs so tests can read them.

export interface ToolExecution {
  tool: string;
  idempotencyKey?: string;
  answer?: unknown;
}

export interface ExecutionLog {
  record(entry: ToolExecution): void;
}

export function memoryLog(): ExecutionLog & { entries: ToolExecution[] } {
  const entries: ToolExecution[] = [];
  return { entries, record: (entry) => entries.push(entry) };
}

/** One JSON line per execution, so a parent process can read what its children did. */
export function fileLog(file: string): ExecutionLog {
  return { record: (entry) => appendFileSync(file, `${JSON.stringify(entry)}\n`) };
}

const scripts: Record<string, string[]> = {
  ask: ["ask_name"],
  pair: ["approve", "ask_name", "count"],
  expiring: ["ask_soon"],
  block: ["slow"],
  "block-after-answer": ["approve_then_block"],
  "approve-soon": ["approve_soon"],
  explode: ["count"],
  twice: ["approve_fixed"],
  again: ["approve"],
};

/** The first word of the run's user message, which picks the script. */
function first(input: ModelInput): string {
  const user = input.messages.findLast((message) => message.role === "user");
  return user?.content.split(" ")[0] ?? "";
}

function plan(input: ModelInput): InProcessReply {
  const last = input.messages.at(-1);
  // The model fails on its second call, after a tool ran; the error text must never reach users.
  if (last?.role === "tool" && first(input) === "explode")
    throw new Error("model host db-7 refused: password=hunter2");
  // "twice" asks for the same fixed-id approval again in its second turn.
  if (last?.role === "tool" && first(input) === "twice") {
    const asked = input.messages.filter((m) => m.role === "assistant" && m.toolCalls?.length).length;
    if (asked < 2) return { toolCalls: [{ name: "approve_fixed", args: { round: asked + 1 } }] };
  }
  // "again" asks for a name once its approval has run, so the run parks a second time.
  if (last?.role === "tool" && first(input) === "again") {
    const asked = input.messages.filter((m) => m.role === "assistant" && m.toolCalls?.length).length;
    if (asked < 2) return { toolCalls: [{ name: "ask_name", args: {} }] };
  }
  if (last?.role === "tool") {
    const outputs: string[] = [];
    for (let i = input.messages.length - 1; i >= 0; i -= 1) {
      const message = input.messages[i]!;
      if (message.role !== "tool") break;
      outputs.unshift(message.content);
    }
    return { text: `finished: ${outputs.join(" | ")}` };
  }
  const prompt = last?.role === "user" ? last.content : "";
  const tools = scripts[prompt.split(" ")[0] ?? ""];
  if (!tools) return { text: `You said: ${prompt}` };
  return { text: "Working on it. ", toolCalls: tools.map((name) => ({ name, args: { for: prompt } })) };
}

/** "chatter" streams its answer word by word, the way hosted models send text. */
export const chatterWords = Array.from({ length: 40 }, (_, i) => `word${i} `);

async function* chatter(): AsyncGenerator<InProcessPart> {
  for (const word of chatterWords) {
    yield { type: "text", delta: word };
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * "drip" answers slowly — a word every 25 ms, then a call to `count`, then a closing line — so
 * a process can be killed in the middle of a model call that has already streamed text.
 */
async function* drip(input: ModelInput): AsyncGenerator<InProcessPart> {
  const afterTool = input.messages.at(-1)?.role === "tool";
  for (const word of chatterWords.slice(0, afterTool ? 10 : 30)) {
    yield { type: "text", delta: afterTool ? `done-${word}` : word };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!afterTool) yield { type: "tool_call", name: "count", args: {} };
}

function generate(input: ModelInput) {
  if (first(input) === "drip") return drip(input);
  return first(input) === "chatter" ? chatter() : plan(input);
}

export function createScriptedClient(): Client {
  return createClientFromDriver(createInProcessDriver({ model: "scripted-test-model", generate }));
}

export const nameSchema = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", minLength: 2 } },
  additionalProperties: false,
};

export interface ScriptedToolkitOptions {
  log: ExecutionLog;
  /** Called by the blocking tools; never resolving it simulates a process stuck mid-tool. */
  block?: (tool: string) => Promise<void>;
}

export async function createScriptedToolkit({ log, block }: ScriptedToolkitOptions): Promise<EngineToolkit> {
  return createToolkit({
    builtins: false,
    extraTools: [
      defineTool({
        name: "ask_name",
        description: "Asks the user for a name.",
        run: (_args, ctx) => {
          log.record({ tool: "ask_name", idempotencyKey: ctx?.idempotencyKey, answer: ctx?.answer });
          if (!ctx?.answer)
            return pending({ kind: "input", prompt: "Your name?", data: { schema: nameSchema } });
          return `name=${String(ctx.answer.data?.name)}`;
        },
      }),
      defineTool({
        name: "approve",
        description: "Needs a reviewer's approval.",
        run: (_args, ctx) => {
          log.record({ tool: "approve", idempotencyKey: ctx?.idempotencyKey, answer: ctx?.answer });
          if (!ctx?.answer) return pending({ kind: "approval", prompt: "Approve the change?" });
          return "approved";
        },
      }),
      defineTool({
        name: "approve_fixed",
        description: "Needs approval, under a fixed request id.",
        run: (_args, ctx) => {
          log.record({ tool: "approve_fixed", idempotencyKey: ctx?.idempotencyKey, answer: ctx?.answer });
          if (!ctx?.answer)
            return pending({ id: "fixed-approval", kind: "approval", prompt: "Approve again?" });
          return "approved";
        },
      }),
      defineTool({
        name: "count",
        description: "Has a side effect that must happen once.",
        run: (_args, ctx) => {
          log.record({ tool: "count", idempotencyKey: ctx?.idempotencyKey });
          return "counted";
        },
      }),
      defineTool({
        name: "ask_soon",
        description: "Asks something that expires at once.",
        run: (_args, ctx) => {
          log.record({ tool: "ask_soon", idempotencyKey: ctx?.idempotencyKey, answer: ctx?.answer });
          if (!ctx?.answer) {
            return pending({
              kind: "input",
              prompt: "Quick!",
              expiresAt: new Date(Date.now() - 1000).toISOString(),
            });
          }
          return "answered in time";
        },
      }),
      defineTool({
        name: "slow",
        description: "Does slow work.",
        run: async (_args, ctx) => {
          log.record({ tool: "slow", idempotencyKey: ctx?.idempotencyKey });
          await block?.("slow");
          return "slow work done";
        },
      }),
      defineTool({
        name: "approve_soon",
        description: "Needs approval within the milliseconds its prompt names, then does slow work.",
        run: async (args, ctx) => {
          log.record({ tool: "approve_soon", idempotencyKey: ctx?.idempotencyKey, answer: ctx?.answer });
          if (!ctx?.answer) {
            const ms = Number(String(args.for).split(" ")[1] ?? "1000");
            const expiresAt = new Date(Date.now() + ms).toISOString();
            return pending({ kind: "approval", prompt: "Approve it in time?", expiresAt });
          }
          await block?.("approve_soon");
          return "approved in time";
        },
      }),
      defineTool({
        name: "approve_then_block",
        description: "Needs approval, then does slow work.",
        run: async (_args, ctx) => {
          log.record({
            tool: "approve_then_block",
            idempotencyKey: ctx?.idempotencyKey,
            answer: ctx?.answer,
          });
          if (!ctx?.answer) return pending({ kind: "approval", prompt: "Approve the slow work?" });
          await block?.("approve_then_block");
          return "approved and done";
        },
      }),
    ],
  });
}
