import { describe, expect, it } from "vitest";
import { createInProcessClient } from "./client";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { collect } from "./testing/run-modes";
import { createToolkit } from "./toolkit";

const add = defineTool({
  name: "add",
  description: "Adds a and b",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  run: ({ a, b }) => String(Number(a) + Number(b)),
});

describe("createInProcessClient", () => {
  it("hands generate the OpenAI-style request and loops on its tool calls", async () => {
    const requests: unknown[] = [];
    const client = createInProcessClient({
      model: "local",
      systemPrompt: "Be terse.",
      generate: (request) => {
        requests.push(structuredClone({ ...request, signal: undefined }));
        const last = request.messages.at(-1)!;
        return last.role === "tool"
          ? { content: `sum is ${String(last.content)}`, usage: { promptTokens: 3, completionTokens: 2 } }
          : { toolCalls: [{ name: "add", arguments: '{"a":2,"b":3}' }] };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
    const result = await client.run("2 + 3?", { toolkit });
    expect(result).toMatchObject({
      status: "done",
      text: "sum is 5",
      usage: { promptTokens: 3, totalTokens: 5 },
    });
    expect(result.toolCalls).toMatchObject([{ name: "add", args: { a: 2, b: 3 }, output: "5" }]);
    const first = requests[0] as Record<string, any>;
    expect(first.model).toBe("local");
    expect(first.messages).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "2 + 3?" },
    ]);
    expect(first.tools).toEqual([
      {
        type: "function",
        function: { name: "add", description: "Adds a and b", parameters: add.inputSchema },
      },
    ]);
    expect(first.body).toMatchObject({ model: "local", tool_choice: "auto", messages: first.messages });
    const second = requests[1] as Record<string, any>;
    expect(second.messages.at(-1)).toMatchObject({
      role: "tool",
      content: "5",
      tool_call_id: expect.any(String),
    });
  });

  it("takes structured arguments too, and feeds unreadable ones back as a tool error", async () => {
    const outputs: string[] = [];
    for (const args of [{ a: 1, b: 1 }, "{not json"]) {
      let calls = 0;
      const client = createInProcessClient({
        model: "m",
        generate: () =>
          ++calls === 1 ? { toolCalls: [{ name: "add", arguments: args }] } : { content: "." },
      });
      const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
      const result = await client.run("go", { toolkit });
      outputs.push(`${result.toolCalls[0]!.isError}:${result.toolCalls[0]!.output}`);
    }
    expect(outputs[0]).toBe("false:2");
    expect(outputs[1]).toMatch(/^true:Invalid arguments for add/);
  });

  it("refuses to stream a generate that returns one reply, and streams one that yields parts", async () => {
    const toolkit = await createToolkit({ builtins: false });
    const oneReply = createInProcessClient({ model: "m", generate: () => ({ content: "x" }) });
    await expect(collect(oneReply.stream("hi", { toolkit }))).rejects.toThrow(/does not support streaming/);
    const parts = createInProcessClient({
      model: "m",
      generate: async function* () {
        yield { type: "text" as const, delta: "Hel" };
        yield { type: "text" as const, delta: "lo" };
      },
    });
    const { events, result } = await collect(parts.stream("hi", { toolkit }));
    expect(events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta)).toEqual([
      "Hel",
      "lo",
    ]);
    expect(result.text).toBe("Hello");
  });

  it("needs no API key, runs a throwing generate once, and requires generate", async () => {
    let calls = 0;
    const client = createInProcessClient({
      model: "m",
      generate: () => {
        calls += 1;
        throw new Error("model bug");
      },
    });
    await expect(client.run("hi")).rejects.toThrow("model bug");
    expect(calls).toBe(1);
    expect(() => createInProcessClient({ model: "m" } as never)).toThrow(/requires a `generate` function/);
  });

  it("suspends and resumes like any other client", async () => {
    const ask = defineTool({
      name: "ask",
      description: "d",
      run: (_args, ctx) =>
        ctx?.answer ? `got ${String(ctx.answer.data?.v)}` : pending({ kind: "input", prompt: "v?" }),
    });
    const client = createInProcessClient({
      model: "demo",
      generate: ({ messages }) => {
        const last = messages.at(-1)!;
        return last.role === "tool"
          ? { content: `tool said: ${String(last.content)}` }
          : { toolCalls: [{ name: "ask" }] };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [ask] });
    const halted = await client.run("go", { toolkit });
    expect(halted).toMatchObject({ status: "pending", model: "demo" });
    const answer = { id: halted.pending!.id, ok: true, data: { v: 7 } };
    expect((await client.resume(halted.checkpoint!, answer, { toolkit })).text).toBe("tool said: got 7");
  });
});
