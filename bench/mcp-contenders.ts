import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createClientFromDriver, createInProcessDriver, createToolkit } from "toolnexus";
import type { Contender } from "./measure-alternating";

// The scenario every contender runs: an in-process model calls the reference server's `echo`
// once and then answers; the tool call is the only I/O. Each contender has its own connection
// (its own child process over stdio), set up and listed once before timing starts.

export type McpTransportKind = "stdio" | "http";

export interface McpTarget {
  kind: McpTransportKind;
  /** The reference server's entry script (stdio) or its /mcp URL (HTTP). */
  script: string;
  url: string;
}

export const FINAL = "echoed";
const MESSAGE = "bench";

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`bench contender produced a wrong outcome: ${what}`);
}

type Closable = Contender & { close(): Promise<void> };

/** The floor: one `tools/call` through the official SDK client, no loop around it. */
export async function sdkFloorContender(name: string, target: McpTarget): Promise<Closable> {
  const client = new Client({ name: "bench-floor", version: "1.0.0" });
  await client.connect(
    target.kind === "stdio"
      ? new StdioClientTransport({
          command: process.execPath,
          args: [target.script, "stdio"],
          stderr: "ignore",
        })
      : new StreamableHTTPClientTransport(new URL(target.url)),
  );
  return {
    name,
    async run() {
      const result = await client.callTool({ name: "echo", arguments: { message: MESSAGE } });
      const [first] = result.content as Array<{ text?: string }>;
      check(first?.text === `Echo: ${MESSAGE}`, "floor echo");
    },
    close: () => client.close(),
  };
}

export async function toolnexusMcpContender(name: string, target: McpTarget): Promise<Closable> {
  const server =
    target.kind === "stdio"
      ? { command: process.execPath, args: [target.script, "stdio"] }
      : { url: target.url };
  const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { ev: server } } });
  check(toolkit.mcpStatus().ev === "connected", "toolnexus connected");
  const client = createClientFromDriver(
    createInProcessDriver({
      model: "bench",
      generate: (input) =>
        input.messages.at(-1)?.role === "tool"
          ? { text: FINAL }
          : { toolCalls: [{ id: "c1", name: "ev_echo", args: { message: MESSAGE } }] },
    }),
  );
  return {
    name,
    async run() {
      const result = await client.run("echo it", { toolkit });
      check(result.status === "done" && result.text === FINAL, "toolnexus final text");
      check(result.toolCalls[0]?.output === `Echo: ${MESSAGE}`, "toolnexus echo");
    },
    close: () => toolkit.close(),
  };
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function mockModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }): Promise<LanguageModelV3GenerateResult> =>
      prompt.at(-1)?.role === "tool"
        ? {
            content: [{ type: "text", text: FINAL }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: [
              {
                type: "tool-call",
                toolCallId: "c1",
                toolName: "echo",
                input: JSON.stringify({ message: MESSAGE }),
              },
            ],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          },
  });
}

export async function aiSdkMcpContender(name: string, target: McpTarget): Promise<Closable> {
  const client: MCPClient = await createMCPClient({
    transport:
      target.kind === "stdio"
        ? new Experimental_StdioMCPTransport({
            command: process.execPath,
            args: [target.script, "stdio"],
            stderr: "ignore",
          })
        : { type: "http", url: target.url },
  });
  const all = await client.tools();
  const tools = { echo: all.echo! };
  return {
    name,
    async run() {
      // A fresh mock per request, so its call log does not grow across iterations.
      const result = await generateText({
        model: mockModel(),
        tools,
        stopWhen: stepCountIs(3),
        prompt: "echo it",
      });
      check(result.text === FINAL, `ai-sdk final text (${JSON.stringify(result.text)})`);
      const output = result.steps[0]?.toolResults[0]?.output as
        | { content?: Array<{ text?: string }> }
        | undefined;
      check(output?.content?.[0]?.text === `Echo: ${MESSAGE}`, "ai-sdk echo");
    },
    close: () => client.close(),
  };
}
