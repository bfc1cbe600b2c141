import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { pending } from "./pending";
import { unbalancedReason } from "./testing/balanced-transcript";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Context, Metric, ModelInput } from "./types";

function expectBalanced(inputs: ModelInput[]) {
  for (const input of inputs) expect(unbalancedReason(input.messages)).toBeUndefined();
}

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
    expect(result.messages).toEqual([
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

  it("gives tools the signal and an idempotency key of runId:toolCallId", async () => {
    const contexts: Array<Context | undefined> = [];
    const probe = defineTool({
      name: "probe",
      description: "d",
      run: (_args, ctx) => {
        contexts.push(ctx);
        return "ok";
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "call-7", name: "probe" }] }, { text: "." }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [probe] });
    const controller = new AbortController();
    await runIn(mode, createClientFromDriver(driver), "go", {
      toolkit,
      runId: "run-abc",
      signal: controller.signal,
    });
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.idempotencyKey).toBe("run-abc:call-7");
    expect(contexts[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(contexts[0]!.answer).toBeUndefined();
    expect(driver.inputs[0]!.signal).toBeInstanceOf(AbortSignal);
    controller.abort();
    expect(contexts[0]!.signal!.aborted).toBe(true);
  });

  it("generates a run id when none is given", async () => {
    const keys: string[] = [];
    const probe = defineTool({
      name: "probe",
      description: "d",
      run: (_a, ctx) => {
        keys.push(ctx!.idempotencyKey!);
        return "";
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: "probe" }] }, { text: "." }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [probe] });
    await runIn(mode, createClientFromDriver(driver), "go", { toolkit });
    expect(keys[0]).toMatch(/^run-[0-9a-f-]{36}:c1$/);
  });

  it("rejects with an aborted error when the signal fires mid-tool, and never starts on an aborted signal", async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const hang = defineTool({
      name: "hang",
      description: "d",
      run: (_args, ctx) => {
        toolSignal = ctx?.signal;
        controller.abort();
        return new Promise(() => {});
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: "hang" }] }]);
    const toolkit = await createToolkit({ builtins: false, extraTools: [hang] });
    const client = createClientFromDriver(driver);
    const error = await runIn(mode, client, "go", { toolkit, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(isToolnexusError(error, "aborted")).toBe(true);
    expect(toolSignal?.aborted).toBe(true);

    const before = driver.inputs.length;
    const again = await runIn(mode, client, "go", { toolkit, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(isToolnexusError(again, "aborted")).toBe(true);
    expect(driver.inputs.length).toBe(before);
  });

  it("propagates a driver failure", async () => {
    const driver = createScriptedDriver([]);
    await expect(runIn(mode, createClientFromDriver(driver), "go")).rejects.toThrow(
      "The script has no step 0",
    );
  });

  it("runs the hooks: beforeTool short-circuits, afterTool replaces, beforeLLM rewrites one call", async () => {
    const ran: string[] = [];
    const real = defineTool({
      name: "real",
      description: "d",
      run: () => {
        ran.push("real");
        return "from tool";
      },
    });
    const cached = defineTool({
      name: "cached",
      description: "d",
      run: () => {
        ran.push("cached");
        return "never";
      },
    });
    const llmTurns: number[] = [];
    const driver = createScriptedDriver([
      {
        toolCalls: [
          { id: "c1", name: "real" },
          { id: "c2", name: "cached" },
        ],
      },
      { text: "fin" },
    ]);
    const client = createClientFromDriver(driver, {
      hooks: {
        beforeTool: ({ call }) =>
          call.name === "cached" ? { output: "from cache", isError: false } : undefined,
        afterTool: ({ call, result }) =>
          call.name === "real" ? { ...result, output: `${result.output}!` } : undefined,
        beforeLLM: ({ messages, turn }) => [{ role: "system", content: `turn ${turn}` }, ...messages],
        afterLLM: ({ turnIndex }) => {
          llmTurns.push(turnIndex);
        },
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [real, cached] });
    const { result } = await runIn(mode, client, "go", { toolkit });
    expect(ran).toEqual(["real"]);
    expect(result.toolCalls.map((c) => c.output)).toEqual(["from tool!", "from cache"]);
    expect(driver.inputs[1]!.messages[0]).toEqual({ role: "system", content: "turn 1" });
    // The rewrite applied to that call only, not to the run's own transcript.
    expect(result.messages[0]).toEqual({ role: "user", content: "go" });
    expect(llmTurns).toEqual([0, 1]);
  });

  it("reports llm and tool metrics", async () => {
    const metrics: Metric[] = [];
    const ok = defineTool({ name: "ok", description: "d", run: () => "fine" });
    const bad = defineTool({ name: "bad", description: "d", run: () => ({ output: "nope", isError: true }) });
    const driver = createScriptedDriver([
      {
        toolCalls: [
          { id: "c1", name: "ok" },
          { id: "c2", name: "bad" },
        ],
      },
      { text: "." },
    ]);
    const client = createClientFromDriver(driver, {
      onMetric: (m) => {
        metrics.push(m);
        throw new Error("a broken observer must not break the run");
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [ok, bad] });
    const { result } = await runIn(mode, client, "go", { toolkit });
    expect(result.status).toBe("done");
    const llm = metrics.filter((m) => m.type === "llm");
    expect(llm).toHaveLength(2);
    expect(llm[0]).toMatchObject({
      name: "scripted-model",
      isError: false,
      pending: false,
      usage: { totalTokens: 2 },
    });
    const tools = metrics.filter((m) => m.type === "tool").sort((a, b) => a.name.localeCompare(b.name));
    expect(tools).toMatchObject([
      { name: "bad", isError: true, pending: false, attempt: 1 },
      { name: "ok", isError: false, pending: false, attempt: 1 },
    ]);
    for (const m of metrics) expect(m.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("treats a pending result from beforeTool as a suspension and does not run the tool", async () => {
    const ran: string[] = [];
    const guarded = defineTool({
      name: "guarded",
      description: "d",
      run: () => {
        ran.push("guarded");
        return "done";
      },
    });
    const driver = createScriptedDriver([{ toolCalls: [{ id: "c1", name: "guarded" }] }]);
    const client = createClientFromDriver(driver, {
      hooks: {
        beforeTool: () => pending({ kind: "approval", prompt: "policy says ask first", id: "gate-1" }),
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [guarded] });
    const { result } = await runIn(mode, client, "go", { toolkit });
    expect(result.status).toBe("pending");
    expect(result.pending).toEqual({ id: "gate-1", kind: "approval", prompt: "policy says ask first" });
    expect(ran).toEqual([]);
  });
});
