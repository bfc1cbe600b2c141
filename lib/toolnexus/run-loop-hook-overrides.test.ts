import { describe, expect, it } from "vitest";
import type { OpenAiToolSchema } from "./adapters";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Metric, Request, StreamEvent } from "./types";

const add = defineTool({
  name: "add",
  description: "Adds a and b",
  run: ({ a, b }) => String(Number(a) + Number(b)),
});

describe.each(RUN_MODES)("hook overrides (%s)", (mode) => {
  it("runs the tool with the arguments beforeTool rewrote, and records them", async () => {
    const driver = createScriptedDriver([
      { toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 2 } }] },
      {},
    ]);
    const client = createClientFromDriver(driver, {
      hooks: { beforeTool: ({ args }) => ({ args: { ...args, b: 40 } }) },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
    const { result } = await runIn(mode, client, "go", { toolkit });
    expect(result.toolCalls).toMatchObject([{ name: "add", args: { a: 1, b: 40 }, output: "41" }]);
  });

  it("suspends on a pending result from beforeTool, asks waitFor, then runs the real tool once", async () => {
    const asked: Request[] = [];
    const guardCalls: string[] = [];
    const metrics: Metric[] = [];
    const driver = createScriptedDriver([
      { toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 2 } }] },
      {},
    ]);
    const client = createClientFromDriver(driver, {
      hooks: {
        beforeTool: ({ name }) => {
          guardCalls.push(name);
          return { result: pending({ kind: "approval", prompt: "add?", id: "gate" }) };
        },
      },
      waitFor: async (request) => {
        asked.push(request);
        return { id: request.id, ok: true };
      },
      onMetric: (metric) => metrics.push(metric),
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
    const { result, events } = await runIn(mode, client, "go", { toolkit });
    expect(result.status).toBe("done");
    expect(asked.map((r) => r.id)).toEqual(["gate"]);
    // The guard ran once: the retry after the approval is not guarded again.
    expect(guardCalls).toEqual(["add"]);
    expect(result.toolCalls).toMatchObject([{ name: "add", output: "3", isError: false }]);
    expect(metrics.filter((m) => m.event === "tool")).toMatchObject([
      { tool: "add", pending: true, isError: false },
      { tool: "add", isError: false, attempt: 2 },
    ]);
    if (mode === "stream") {
      const kinds = events.map((e: StreamEvent) => e.type);
      expect(kinds.indexOf("pending")).toBeLessThan(kinds.indexOf("tool_result"));
    }
  });

  it("in a stream, the consumer has handled the pending event before waitFor is called", async () => {
    const driver = createScriptedDriver([
      { toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 2 } }] },
      {},
    ]);
    let consumerSaw = false;
    let sawBeforeAsked: boolean | undefined;
    const client = createClientFromDriver(driver, {
      hooks: { beforeTool: () => ({ result: pending({ kind: "approval", prompt: "add?" }) }) },
      waitFor: async (request) => {
        sawBeforeAsked = consumerSaw;
        return { id: request.id, ok: true };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [add] });
    for await (const event of client.stream("go", { toolkit })) {
      if (event.type === "pending") {
        // Handling takes a while; the host is asked only after it.
        await new Promise((resolve) => setTimeout(resolve, 20));
        consumerSaw = true;
      }
    }
    expect(sawBeforeAsked).toBe(true);
  });

  it("keeps the tools beforeLLM put in place for the rest of the run", async () => {
    const driver = createScriptedDriver([
      { toolCalls: [{ id: "c1", name: "add", args: { a: 1, b: 1 } }] },
      {},
    ]);
    const seen: string[][] = [];
    const client = createClientFromDriver(driver, {
      hooks: {
        beforeLLM: ({ tools, turn }) => {
          // OpenAI's tool declarations, as the provider is sent them.
          const named = tools as OpenAiToolSchema[];
          seen.push(named.map((t) => t.function.name));
          return turn === 0 ? { tools: named.filter((t) => t.function.name === "add") } : undefined;
        },
      },
    });
    const other = defineTool({ name: "other", description: "d", run: () => "" });
    const toolkit = await createToolkit({ builtins: false, extraTools: [other, add] });
    await runIn(mode, client, "go", { toolkit });
    expect(seen).toEqual([["other", "add"], ["add"]]);
    expect(driver.inputs.map((input) => input.tools.map((t) => t.name))).toEqual([["add"], ["add"]]);
  });
});
