import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { unbalancedReason } from "./testing/balanced-transcript";
import { RUN_MODES, runIn } from "./testing/run-modes";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Answer, Context, Metric, Request } from "./types";

const twoTurns = (...names: string[]) =>
  createScriptedDriver([
    { toolCalls: names.map((name, i) => ({ id: `c${i + 1}`, name })) },
    { text: "finished" },
  ]);

describe.each(RUN_MODES)("suspensions with waitFor (%s)", (mode) => {
  it("retries the same call once with ctx.answer and the same idempotency key", async () => {
    const contexts: Array<Context | undefined> = [];
    const deploy = defineTool({
      name: "deploy",
      description: "d",
      run: (args, ctx) => {
        contexts.push(ctx);
        if (!ctx?.answer) return pending({ kind: "approval", prompt: "Deploy to prod?", id: "appr-1" });
        return `deployed ${String(args.v)} (approved by ${String(ctx.answer.data?.approver)})`;
      },
    });
    const asked: Request[] = [];
    const driver = createScriptedDriver([
      { toolCalls: [{ id: "c1", name: "deploy", args: { v: "1.4" } }] },
      { text: "finished" },
    ]);
    const client = createClientFromDriver(driver, {
      waitFor: async (request) => {
        asked.push(request);
        return { id: request.id, ok: true, data: { approver: "ana" } };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [deploy] });
    const { result, events } = await runIn(mode, client, "ship", { toolkit, runId: "r1" });
    expect(result.status).toBe("done");
    expect(result.toolCalls).toEqual([
      {
        id: "c1",
        name: "deploy",
        args: { v: "1.4" },
        output: "deployed 1.4 (approved by ana)",
        isError: false,
      },
    ]);
    expect(asked).toEqual([{ id: "appr-1", kind: "approval", prompt: "Deploy to prod?" }]);
    expect(contexts).toHaveLength(2);
    expect(contexts[1]!.answer).toEqual({ id: "appr-1", ok: true, data: { approver: "ana" } });
    expect(contexts.map((c) => c!.idempotencyKey)).toEqual(["r1:c1", "r1:c1"]);
    expect(unbalancedReason(driver.inputs[1]!.messages)).toBeUndefined();
    if (mode === "stream") {
      const kinds = events.map((e) => e.type).filter((t) => t !== "text");
      expect(kinds).toEqual(["usage", "tool_call", "pending", "tool_result", "usage", "done"]);
      expect(events.find((e) => e.type === "pending")).toEqual({ type: "pending", request: asked[0] });
    }
  });

  it("feeds back the decline text for ok: false and lets the model decide", async () => {
    let runs = 0;
    const refund = defineTool({
      name: "refund",
      description: "d",
      run: () => {
        runs++;
        return pending({ kind: "approval", prompt: "Refund $900?" });
      },
    });
    const driver = twoTurns("refund");
    const client = createClientFromDriver(driver, {
      waitFor: async (request) => ({ id: request.id, ok: false, reason: "declined" }),
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [refund] });
    const { result } = await runIn(mode, client, "refund it", { toolkit });
    expect(result.status).toBe("done");
    expect(result.text).toBe("finished");
    expect(runs).toBe(1);
    expect(result.toolCalls[0]).toMatchObject({ output: "declined/expired: Refund $900?", isError: true });
    expect(driver.inputs[1]!.messages.at(-1)).toMatchObject({
      role: "tool",
      content: "declined/expired: Refund $900?",
    });
  });

  it("uses formatDecline, which sees the request and the answer", async () => {
    const tool = defineTool({
      name: "t",
      description: "d",
      run: () => pending({ kind: "approval", prompt: "go?" }),
    });
    const client = createClientFromDriver(twoTurns("t"), {
      waitFor: async (request) => ({ id: request.id, ok: false, reason: "expired" }),
      formatDecline: (request, answer) => `${answer?.reason}: ${request.prompt}`,
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    const { result } = await runIn(mode, client, "x", { toolkit });
    expect(result.toolCalls[0]!.output).toBe("expired: go?");
  });

  it("feeds back unresolved: <original prompt> when the retry suspends again, asking only once", async () => {
    let n = 0;
    const stubborn = defineTool({
      name: "stubborn",
      description: "d",
      run: () => pending({ kind: "approval", prompt: n++ === 0 ? "first ask" : "second ask" }),
    });
    let asks = 0;
    const client = createClientFromDriver(twoTurns("stubborn"), {
      waitFor: async (request) => {
        asks++;
        return { id: request.id, ok: true };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [stubborn] });
    const { result } = await runIn(mode, client, "x", { toolkit });
    expect(result.status).toBe("done");
    expect(asks).toBe(1);
    expect(n).toBe(2);
    expect(result.toolCalls[0]).toMatchObject({ output: "unresolved: first ask", isError: true });
  });

  it("rejects the run when waitFor throws", async () => {
    const tool = defineTool({
      name: "t",
      description: "d",
      run: () => pending({ kind: "input", prompt: "?" }),
    });
    const client = createClientFromDriver(twoTurns("t"), {
      waitFor: async () => {
        throw new Error("queue unavailable");
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    await expect(runIn(mode, client, "x", { toolkit })).rejects.toThrow("queue unavailable");
  });

  it("resolves concurrent suspensions independently, none lost", async () => {
    const make = (name: string) =>
      defineTool({
        name,
        description: "d",
        run: (_args, ctx) =>
          ctx?.answer
            ? `${name}=${String(ctx.answer.data?.value)}`
            : pending({ kind: "input", prompt: `${name}?`, id: `req-${name}` }),
      });
    const waiting = new Map<string, (answer: Answer) => void>();
    let bothAsked!: () => void;
    const asked = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    const client = createClientFromDriver(twoTurns("a", "b", "c"), {
      waitFor: (request) =>
        new Promise<Answer>((resolve) => {
          waiting.set(request.id, resolve);
          if (waiting.size === 3) bothAsked();
        }),
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [make("a"), make("b"), make("c")] });
    const running = runIn(mode, client, "x", { toolkit });
    // All three are asked before any is answered: each suspension waits on its own.
    await asked;
    waiting.get("req-c")!({ id: "req-c", ok: true, data: { value: 3 } });
    waiting.get("req-a")!({ id: "req-a", ok: true, data: { value: 1 } });
    waiting.get("req-b")!({ id: "req-b", ok: false, reason: "declined" });
    const { result } = await running;
    expect(result.toolCalls.map((c) => c.output)).toEqual(["a=1", "declined/expired: b?", "c=3"]);
  });

  it("calls afterTool on the resolved result only and marks the suspension pending in metrics", async () => {
    const seen: string[] = [];
    const metrics: Metric[] = [];
    const tool = defineTool({
      name: "t",
      description: "d",
      run: (_args, ctx) => (ctx?.answer ? "resolved" : pending({ kind: "approval", prompt: "?" })),
    });
    const client = createClientFromDriver(twoTurns("t"), {
      waitFor: async (request) => ({ id: request.id, ok: true }),
      hooks: {
        afterTool: ({ result }) => {
          seen.push(result.output);
        },
      },
      onMetric: (m) => metrics.push(m),
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    await runIn(mode, client, "x", { toolkit });
    expect(seen).toEqual(["resolved"]);
    const tools = metrics.filter((m) => m.event === "tool");
    expect(tools).toMatchObject([
      { tool: "t", pending: true, isError: false, attempt: 1 },
      { tool: "t", isError: false, attempt: 2 },
    ]);
    expect(tools[1]).not.toHaveProperty("pending");
  });
});
