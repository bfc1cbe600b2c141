import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Metric } from "./types";

describe.each(RUN_MODES)("the loop (%s)", (mode) => {
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
