import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Metric } from "./types";

describe.each(RUN_MODES)("the loop (%s)", (mode) => {
  it("runs the hooks: beforeTool short-circuits, afterTool replaces, beforeLLM's rewrite persists", async () => {
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
        beforeTool: ({ name }) =>
          name === "cached" ? { result: { output: "from cache", isError: false } } : undefined,
        afterTool: ({ name, result }) =>
          name === "real" ? { result: { ...result, output: `${result.output}!` } } : undefined,
        beforeLLM: ({ messages, turn }) =>
          turn === 0
            ? { messages: [{ role: "user", content: "rewritten" }, ...messages.slice(1)] }
            : undefined,
        afterLLM: ({ response, model, turn }) => {
          llmTurns.push(turn);
          expect(model).toBe("scripted-model");
          expect(response.usage.totalTokens).toBe(2);
        },
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [real, cached] });
    const { result } = await runIn(mode, client, "go", { toolkit });
    expect(ran).toEqual(["real"]);
    expect(result.toolCalls.map((c) => c.output)).toEqual(["from tool!", "from cache"]);
    expect(driver.inputs[0]!.messages[0]).toEqual({ role: "user", content: "rewritten" });
    // The rewrite is the run's transcript from then on: the next call and the result carry it.
    expect(driver.inputs[1]!.messages[0]).toEqual({ role: "user", content: "rewritten" });
    expect(result.messages[0]).toEqual({ role: "user", content: "rewritten" });
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
    const llm = metrics.filter((m) => m.event === "llm");
    expect(llm).toHaveLength(2);
    expect(llm[0]).toMatchObject({
      model: "scripted-model",
      status: "ok",
      promptTokens: 1,
      completionTokens: 1,
    });
    const tools = metrics.filter((m) => m.event === "tool").sort((a, b) => a.tool.localeCompare(b.tool));
    expect(tools).toEqual([
      { event: "tool", tool: "bad", source: "native", isError: true, ms: expect.any(Number), attempt: 1 },
      { event: "tool", tool: "ok", source: "native", isError: false, ms: expect.any(Number), attempt: 1 },
    ]);
    expect(metrics.at(-1)).toEqual({
      event: "run",
      model: "scripted-model",
      turns: 2,
      toolCalls: 2,
      totalTokens: 4,
      ms: expect.any(Number),
    });
    for (const m of metrics) expect(m.ms).toBeGreaterThanOrEqual(0);
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
        beforeTool: () => ({
          result: pending({ kind: "approval", prompt: "policy says ask first", id: "gate-1" }),
        }),
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [guarded] });
    const { result } = await runIn(mode, client, "go", { toolkit });
    expect(result.status).toBe("pending");
    expect(result.pending).toEqual({ id: "gate-1", kind: "approval", prompt: "policy says ask first" });
    expect(ran).toEqual([]);
  });
});
