import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { expectBalanced } from "./testing/expect-balanced";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";

describe.each(RUN_MODES)("the loop (%s)", (mode) => {
  it("returns the model's text when it calls no tools", async () => {
    const driver = createScriptedDriver([
      { text: "Hello there, friend.", usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } },
    ]);
    const client = createClientFromDriver(driver, { systemPrompt: "Be brief." });
    const history = [
      { role: "user" as const, content: "earlier" },
      { role: "assistant" as const, content: "noted" },
    ];
    const { result, events } = await runIn(mode, client, "hi", { history });
    expect(result).toMatchObject({
      status: "done",
      text: "Hello there, friend.",
      turns: 1,
      toolCallCount: 0,
      toolCalls: [],
      model: "scripted-model",
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
    expect(result.pending).toBeUndefined();
    expect(result.limit).toBeUndefined();
    expect(result.transcript).toEqual([
      ...history,
      { role: "user", content: "hi" },
      { role: "assistant", content: "Hello there, friend." },
    ]);
    expect(driver.inputs[0]!.system).toBe("Be brief.");
    expect(driver.inputs[0]!.messages).toEqual([...history, { role: "user", content: "hi" }]);
    if (mode === "stream") {
      const deltas = events.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.delta : ""));
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe("Hello there, friend.");
      expect(events.map((e) => e.type).slice(-2)).toEqual(["usage", "done"]);
    }
  });

  it("runs the tools of one turn concurrently and feeds results back in tool-call order", async () => {
    let releaseSlow!: () => void;
    const fastStarted = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    // The slow tool can only finish once the fast one has started: sequential execution would deadlock.
    const slow = defineTool({
      name: "slow",
      description: "d",
      run: async () => {
        await fastStarted;
        return "slow done";
      },
    });
    const fast = defineTool({
      name: "fast",
      description: "d",
      run: () => {
        releaseSlow();
        return { n: 1 };
      },
    });
    const driver = createScriptedDriver([
      {
        toolCalls: [
          { id: "c1", name: "slow" },
          { id: "c2", name: "fast", args: { x: 1 } },
        ],
      },
      { text: "both ran" },
    ]);
    const client = createClientFromDriver(driver);
    const toolkit = await createToolkit({ builtins: false, extraTools: [slow, fast] });
    const { result, events } = await runIn(mode, client, "go", { toolkit });
    expect(result.status).toBe("done");
    expect(result.text).toBe("both ran");
    expect(result.toolCalls).toEqual([
      { id: "c1", name: "slow", args: {}, output: "slow done", isError: false },
      { id: "c2", name: "fast", args: { x: 1 }, output: '{"n":1}', isError: false },
    ]);
    expect(driver.inputs[1]!.messages.slice(-2)).toEqual([
      { role: "tool", toolCallId: "c1", name: "slow", content: "slow done", isError: false },
      { role: "tool", toolCallId: "c2", name: "fast", content: '{"n":1}', isError: false },
    ]);
    expect(driver.inputs[0]!.tools.map((t) => t.name)).toEqual(["slow", "fast"]);
    expectBalanced(driver.inputs);
    if (mode === "stream") {
      const shape = events
        .filter((e) => e.type !== "text")
        .map((e) => ("id" in e ? `${e.type}:${e.id}` : e.type));
      expect(shape).toEqual([
        "usage",
        "tool_call:c1",
        "tool_call:c2",
        "tool_result:c1",
        "tool_result:c2",
        "usage",
        "done",
      ]);
    }
  });

  it("feeds an unknown tool and non-JSON arguments back as errors and keeps going", async () => {
    const ran: string[] = [];
    const echo = defineTool({
      name: "echo",
      description: "d",
      run: () => {
        ran.push("echo");
        return "echoed";
      },
    });
    const driver = createScriptedDriver([
      {
        toolCalls: [
          { id: "c1", name: "missing" },
          { id: "c2", name: "echo", invalidArgs: "{not json" },
          { id: "c3", name: "echo" },
        ],
      },
      { text: "recovered" },
    ]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [echo] });
    const { result } = await runIn(mode, createClientFromDriver(driver), "go", { toolkit });
    expect(result.status).toBe("done");
    expect(result.text).toBe("recovered");
    expect(ran).toEqual(["echo"]);
    const [unknown, invalid, fine] = result.toolCalls;
    expect(unknown).toMatchObject({ isError: true, output: "Unknown tool: missing" });
    expect(invalid!.isError).toBe(true);
    expect(invalid!.output).toContain("{not json");
    expect(fine).toMatchObject({ isError: false, output: "echoed" });
    expectBalanced(driver.inputs);
  });

  it("stops at maxTurns with status incomplete and sums usage over every turn", async () => {
    const ping = defineTool({ name: "ping", description: "d", run: () => "pong" });
    const driver = createScriptedDriver((_input, i) => ({
      text: `turn ${i}`,
      toolCalls: [{ id: `c${i}`, name: "ping" }],
      usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 },
    }));
    const toolkit = await createToolkit({ builtins: false, extraTools: [ping] });
    const { result } = await runIn(mode, createClientFromDriver(driver, { maxTurns: 3 }), "loop", {
      toolkit,
    });
    expect(result).toMatchObject({
      status: "incomplete",
      limit: "maxTurns",
      turns: 3,
      toolCallCount: 3,
      text: "turn 2",
      usage: { promptTokens: 6, completionTokens: 3, totalTokens: 9 },
    });
    expect(driver.inputs).toHaveLength(3);
  });

  it("defaults maxTurns to 20", async () => {
    const ping = defineTool({ name: "ping", description: "d", run: () => "pong" });
    const driver = createScriptedDriver((_input, i) => ({ toolCalls: [{ id: `c${i}`, name: "ping" }] }));
    const toolkit = await createToolkit({ builtins: false, extraTools: [ping] });
    const { result } = await runIn(mode, createClientFromDriver(driver), "loop", { toolkit });
    expect(result.status).toBe("incomplete");
    expect(result.turns).toBe(20);
  });

  it("propagates a driver failure", async () => {
    const driver = createScriptedDriver([]);
    await expect(runIn(mode, createClientFromDriver(driver), "go")).rejects.toThrow(
      "The script has no step 0",
    );
  });
});
