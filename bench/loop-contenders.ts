import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  generateText,
  type JSONSchema7,
  jsonSchema,
  type ModelMessage,
  stepCountIs,
  type ToolSet,
  tool,
} from "ai";
import {
  type Client,
  createClient,
  createToolkit,
  defineTool,
  type JsonSchema,
  pending,
  type Toolkit,
} from "toolnexus";
import type { Contender } from "./measure-alternating";
import { FINAL_TEXT } from "./stub-llm-server";

// The scenario both sections share: the stub model calls the two offered tools in parallel, the
// tools answer at once, the model answers. Same stub, same tool bodies, same schema for everyone;
// each contender checks its outcome so a misbehaving one fails the run instead of being timed.

const VALUE_SCHEMA: JsonSchema = {
  type: "object",
  properties: { value: { type: "string" } },
  required: ["value"],
  additionalProperties: false,
};

const PROMPT = "Look up v0 and v1, then summarise.";
const MAX_STEPS = 5;

const lookup = (value: unknown) => `lookup:${String(value)}`;

/** The scenario for contenders built elsewhere (the reference port's). */
export const LOOP_SCENARIO = { prompt: PROMPT, schema: VALUE_SCHEMA, lookup };
const transfer = (value: unknown) => `transferred:${String(value)}`;

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`bench contender produced a wrong outcome: ${what}`);
}

/** Two raw POSTs with the bodies a loop would send: the floor every contender pays for HTTP + JSON. */
export function httpFloorContender(baseUrl: string): Contender {
  const url = `${baseUrl}/chat/completions`;
  const tools = ["lookup", "convert"].map((name) => ({
    type: "function",
    function: { name, description: "Trivial tool", parameters: VALUE_SCHEMA },
  }));
  const first = { model: "bench", messages: [{ role: "user", content: PROMPT }], tools };
  const post = async (body: unknown) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body: JSON.stringify(body),
    });
    return (await res.json()) as {
      choices: Array<{ message: { content: string | null; tool_calls?: any[] } }>;
    };
  };
  return {
    name: "http-floor",
    async run() {
      const turn = (await post(first)).choices[0]!.message;
      const calls = turn.tool_calls ?? [];
      const results = calls.map((call) => ({
        role: "tool",
        tool_call_id: call.id,
        content: lookup(JSON.parse(call.function.arguments).value),
      }));
      const second = { ...first, messages: [...first.messages, { role: "assistant", ...turn }, ...results] };
      const answer = (await post(second)).choices[0]!.message;
      expect(calls.length === 2 && answer.content === FINAL_TEXT, "floor round trips");
    },
  };
}

// ---- toolnexus --------------------------------------------------------------------------------

export interface ToolnexusSetup {
  client: Client;
  toolkit: Toolkit;
}

async function toolkitFor(suspending: boolean): Promise<Toolkit> {
  const first = defineTool({
    name: "lookup",
    description: "Trivial tool",
    inputSchema: { ...VALUE_SCHEMA },
    run: ({ value }) => lookup(value),
  });
  const second = suspending
    ? defineTool({
        name: "transfer",
        description: "Needs approval",
        inputSchema: { ...VALUE_SCHEMA },
        run: ({ value }, ctx) =>
          ctx?.answer?.ok
            ? transfer(value)
            : pending({ kind: "approval", prompt: `Approve transfer ${value}?` }),
      })
    : defineTool({
        name: "convert",
        description: "Trivial tool",
        inputSchema: { ...VALUE_SCHEMA },
        run: ({ value }) => lookup(value),
      });
  return createToolkit({ builtins: false, extraTools: [first, second] });
}

export type ToolnexusModel = "http" | "ai-sdk";

export async function toolnexusContender(
  name: string,
  baseUrl: string,
  options: { model: ToolnexusModel; suspend: "none" | "wait-for" | "halt-resume" },
): Promise<Contender & { close(): Promise<void> }> {
  const toolkit = await toolkitFor(options.suspend !== "none");
  const where =
    options.model === "http"
      ? { baseUrl, style: "openai" as const, model: "bench", apiKey: "bench", retries: 0 }
      : {
          languageModel: createOpenAICompatible({ name: "bench", baseURL: baseUrl, apiKey: "bench" })(
            "bench",
          ),
        };
  const client = createClient(
    options.suspend === "wait-for"
      ? { ...where, waitFor: async (request) => ({ id: request.id, ok: true }) }
      : where,
  );
  return {
    name,
    async run() {
      let result = await client.run(PROMPT, { toolkit });
      if (options.suspend === "halt-resume") {
        expect(result.status === "pending" && result.checkpoint !== undefined, "halt with a checkpoint");
        // A real host stores the checkpoint as text and resumes elsewhere; the round trip is part of the cost.
        const stored = JSON.parse(JSON.stringify(result.checkpoint));
        result = await client.resume(stored, { id: result.pending!.id, ok: true }, { toolkit });
      }
      expect(
        result.status === "done" && result.text === FINAL_TEXT,
        `done with the final text (${result.status})`,
      );
      expect(result.toolCalls.length === 2 && result.toolCalls.every((c) => !c.isError), "two tool results");
    },
    close: () => toolkit.close(),
  };
}

// ---- Vercel AI SDK ------------------------------------------------------------------------------

export function aiSdkContender(name: string, baseUrl: string, options: { approval: boolean }): Contender {
  const model = createOpenAICompatible({ name: "bench", baseURL: baseUrl, apiKey: "bench" })("bench");
  const schema = jsonSchema<{ value: string }>({ ...VALUE_SCHEMA } as JSONSchema7);
  const tools: ToolSet = {
    lookup: tool({
      description: "Trivial tool",
      inputSchema: schema,
      execute: async ({ value }) => lookup(value),
    }),
  };
  if (options.approval) {
    tools.transfer = tool({
      description: "Needs approval",
      inputSchema: schema,
      needsApproval: true,
      execute: async ({ value }) => transfer(value),
    });
  } else {
    tools.convert = tool({
      description: "Trivial tool",
      inputSchema: schema,
      execute: async ({ value }) => lookup(value),
    });
  }
  const settings = { model, tools, stopWhen: stepCountIs(MAX_STEPS), maxRetries: 0 };
  return {
    name,
    async run() {
      const messages: ModelMessage[] = [{ role: "user", content: PROMPT }];
      let result = await generateText({ ...settings, messages });
      if (options.approval) {
        // The SDK's documented round trip: collect approval requests, answer them, call again.
        const requests = result.content.filter((part) => part.type === "tool-approval-request");
        expect(requests.length === 1, "one approval request");
        messages.push(...result.response.messages, {
          role: "tool",
          content: requests.map((r) => ({
            type: "tool-approval-response",
            approvalId: r.approvalId,
            approved: true,
          })),
        });
        result = await generateText({ ...settings, messages });
      }
      expect(result.text === FINAL_TEXT, `final text (${JSON.stringify(result.text)})`);
    },
  };
}
