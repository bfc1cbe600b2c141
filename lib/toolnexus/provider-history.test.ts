import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { toTranscript } from "./provider-history";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Message, ProviderMessage } from "./types";

const add = defineTool({
  name: "add",
  description: "Adds a and b",
  run: ({ a, b }) => String(Number(a) + Number(b)),
});

const script = () =>
  createScriptedDriver([
    { toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 2 } }] },
    { text: "3" },
    { text: "again" },
  ]);

describe("provider messages handed back to the loop", () => {
  it.each(["openai", "anthropic"] as const)(
    "a run's %s messages as the next run's history read as its transcript",
    async (messageFormat) => {
      const driver = script();
      const client = createClientFromDriver(driver, { systemPrompt: "Be terse.", messageFormat });
      const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
      const first = await client.run("1 + 2?", { toolkit });
      await client.run("once more", { toolkit, history: first.messages });
      // The system prompt is sent once, not again from an OpenAI history.
      expect(driver.inputs[2]!.messages).toEqual([
        ...first.transcript,
        { role: "user", content: "once more" },
      ]);
      expect(driver.inputs[2]!.system).toBe("Be terse.");
    },
  );

  it("beforeLLM sees Anthropic messages when asked for, and its Anthropic rewrite persists", async () => {
    const driver = script();
    const seen: ProviderMessage[][] = [];
    const client = createClientFromDriver(driver, {
      messageFormat: "anthropic",
      hooks: {
        beforeLLM: ({ messages, turn }) => {
          seen.push(messages);
          if (turn !== 1) return undefined;
          const [, ...rest] = messages;
          return { messages: [{ role: "user", content: [{ type: "text", text: "rewritten" }] }, ...rest] };
        },
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
    const result = await client.run("1 + 2?", { toolkit });
    expect(seen[1]).toEqual([
      { role: "user", content: [{ type: "text", text: "1 + 2?" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "add", input: { a: 1, b: 2 } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "3", is_error: false }] },
    ]);
    const expected: Message[] = [
      { role: "user", content: "rewritten" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 2 } }] },
      { role: "tool", toolCallId: "c1", name: "add", content: "3", isError: false },
    ];
    expect(driver.inputs[1]!.messages).toEqual(expected);
    expect(result.transcript).toEqual([...expected, { role: "assistant", content: "3" }]);
  });

  it("keeps this library's own messages as they are, and mixes in provider ones", () => {
    const own: Message[] = [
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "add", args: {}, invalidArgs: "{" }] },
      { role: "tool", toolCallId: "c1", name: "add", content: "bad args", isError: true },
    ];
    expect(toTranscript([{ role: "system", content: "Be terse." }, ...own], "Be terse.")).toEqual(own);
    expect(
      toTranscript(
        [
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "x", type: "function", function: { name: "add", arguments: '{"a":1}' } }],
          },
          { role: "tool", tool_call_id: "x", content: "1" },
        ],
        undefined,
      ),
    ).toEqual([
      { role: "assistant", content: "", toolCalls: [{ id: "x", name: "add", args: { a: 1 } }] },
      { role: "tool", toolCallId: "x", name: "add", content: "1", isError: false },
    ]);
  });

  it("refuses a history it cannot read, naming the message, before any model call", async () => {
    const driver = script();
    const client = createClientFromDriver(driver);
    const bad = [
      { role: "user", content: "hi" },
      { role: "tool", tool_call_id: "nope", content: "x" },
    ];
    const error = await client.run("go", { history: bad }).catch((e: unknown) => e);
    expect(isToolnexusError(error, "config:invalid")).toBe(true);
    expect((error as Error).message).toMatch(/^history\[1\]: a tool result for call "nope"/);
    expect(driver.inputs).toHaveLength(0);
    await expect(client.run("go", { history: [{ role: "robot", content: "x" }] })).rejects.toThrow(
      /history\[0\]: unknown role "robot"/,
    );
  });
});
