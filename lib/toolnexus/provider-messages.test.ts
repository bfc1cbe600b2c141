import { describe, expect, it } from "vitest";
import { createClient } from "./client";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { toolsThenText } from "./testing/tools-then-text";
import { useStubLlmServer } from "./testing/use-stub-llm-server";
import { createToolkit } from "./toolkit";

const stub = useStubLlmServer();

const add = defineTool({
  name: "add",
  description: "Adds a and b",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  run: ({ a, b }) => `${(a as number) + (b as number)}`,
});
const ask = defineTool({
  name: "ask",
  description: "Asks the user",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  run: ({ q }) => pending({ kind: "input", prompt: String(q) }),
});

const client = (style: "openai" | "anthropic", systemPrompt?: string) =>
  createClient({
    baseUrl: stub.server.baseUrl(style),
    style,
    model: "stub-model",
    apiKey: "test-key",
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
  });

describe("RunResult.messages in the provider's format", () => {
  it("OpenAI style: the system prompt first, tool_calls, and tool_call_id results", async () => {
    toolsThenText(stub, [{ id: "c1", name: "add" }], (outputs) => `sum ${outputs[0]}`);
    stub.reply = ((inner) => (request) => {
      const reply = inner!(request);
      return "toolCalls" in reply && reply.toolCalls
        ? { toolCalls: [{ id: "c1", name: "add", args: { a: 2, b: 3 } }] }
        : reply;
    })(stub.reply);
    const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
    const result = await client("openai", "Be terse.").run("2 + 3?", { toolkit });
    expect(result.messages).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "2 + 3?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a":2,"b":3}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "5" },
      { role: "assistant", content: "sum 5" },
    ]);
    // The neutral transcript stays what checkpoints and hosts read.
    expect(result.transcript.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(result.transcript[2]).toMatchObject({ role: "tool", toolCallId: "c1", name: "add", content: "5" });
  });

  it("Anthropic style: tool_use blocks, and on a halt only the first suspension's tool_result", async () => {
    stub.server.requests.length = 0;
    stub.reply = () => ({
      toolCalls: [
        { id: "t1", name: "ask", args: { q: "First?" } },
        { id: "t2", name: "ask", args: { q: "Second?" } },
      ],
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [ask] });
    const result = await client("anthropic", "Be terse.").run("ask two", { toolkit });
    expect(result.status).toBe("pending");
    expect(result.pending?.prompt).toBe("First?");
    expect(result.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "ask two" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "ask", input: { q: "First?" } },
          { type: "tool_use", id: "t2", name: "ask", input: { q: "Second?" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "First?", is_error: true }],
      },
    ]);
  });

  it("messageFormat picks the format for any driver, and JSON carries both shapes", async () => {
    stub.reply = () => ({ text: "hi" });
    const anthropicLike = createClient({
      baseUrl: stub.server.baseUrl("openai"),
      style: "openai",
      model: "stub-model",
      apiKey: "test-key",
      messageFormat: "anthropic",
    });
    const result = await anthropicLike.run("hello");
    const copy = JSON.parse(JSON.stringify(result));
    expect(copy.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hello" }] },
      { role: "assistant", content: [{ type: "text", text: "hi" }] },
    ]);
    expect(copy.transcript).toEqual([
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi" },
    ]);
  });
});
