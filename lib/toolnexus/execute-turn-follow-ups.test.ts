import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { MAX_FOLLOW_UPS } from "./execute-turn";
import { pending } from "./pending";
import { createScriptedDriver } from "./testing/scripted-driver";
import { createToolkit } from "./toolkit";
import type { Answer, Context, ToolResult } from "./types";

const script = () =>
  createScriptedDriver([{ toolCalls: [{ id: "c1", name: "form" }] }, { text: "finished" }]);

/** A tool whose one call asks `questions` in turn, naming the request each follow-up continues. */
function askingTool(questions: number, marks: { continues?: boolean; resumeOnDecline?: boolean } = {}) {
  const seen: Context[] = [];
  const tool = defineTool({
    name: "form",
    description: "asks several questions",
    run: (_args, ctx): ToolResult | string => {
      seen.push({ ...ctx });
      const step = ctx?.answer ? Number(ctx.request?.data?.step) + 1 : 1;
      if (ctx?.answer && !ctx.answer.ok) return `told the server: ${ctx.answer.reason}`;
      if (step > questions) return `all ${questions} answered`;
      const result = pending({ id: `q${step}`, kind: "input", prompt: `question ${step}`, data: { step } });
      result.metadata = { ...result.metadata };
      if (marks.continues !== false && ctx?.answer) result.metadata.continues = ctx.answer.id;
      if (marks.resumeOnDecline) result.metadata.resumeOnDecline = true;
      return result;
    },
  });
  return { tool, seen };
}

describe("follow-up questions of one call", () => {
  it("asks each follow-up through waitFor when the tool names the request it continues", async () => {
    const { tool, seen } = askingTool(3);
    const asked: string[] = [];
    const client = createClientFromDriver(script(), {
      waitFor: async (request) => {
        asked.push(request.id);
        return { id: request.id, ok: true, data: { a: request.id } };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    const result = await client.run("x", { toolkit });
    expect(asked).toEqual(["q1", "q2", "q3"]);
    expect(result.toolCalls[0]).toMatchObject({ output: "all 3 answered", isError: false });
    // Each retry sees the answer and the request it answers.
    expect(seen.slice(1).map((ctx) => [ctx.answer?.id, ctx.request?.id])).toEqual([
      ["q1", "q1"],
      ["q2", "q2"],
      ["q3", "q3"],
    ]);
  });

  it("still stops a retry that suspends without naming the answered request", async () => {
    const { tool } = askingTool(3, { continues: false });
    const client = createClientFromDriver(script(), { waitFor: async (r) => ({ id: r.id, ok: true }) });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    const result = await client.run("x", { toolkit });
    expect(result.toolCalls[0]).toMatchObject({ output: "unresolved: question 1", isError: true });
  });

  it(`bounds an in-process chain at ${MAX_FOLLOW_UPS} follow-ups`, async () => {
    const { tool } = askingTool(100);
    let asks = 0;
    const client = createClientFromDriver(script(), {
      waitFor: async (r) => {
        asks += 1;
        return { id: r.id, ok: true };
      },
    });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    const result = await client.run("x", { toolkit });
    expect(asks).toBe(MAX_FOLLOW_UPS + 1);
    expect(result.toolCalls[0]!.output).toBe(`unresolved: question ${MAX_FOLLOW_UPS + 1}`);
  });

  it("parks each follow-up durably: resume answers one, the run halts on the next", async () => {
    const { tool } = askingTool(2);
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    const client = createClientFromDriver(script());
    const first = await client.run("x", { toolkit });
    expect(first.pending?.id).toBe("q1");
    const second = await client.resume(first.checkpoint!, { id: "q1", ok: true }, { toolkit });
    expect(second.status).toBe("pending");
    expect(second.suspended?.map((r) => r.id)).toEqual(["q2"]);
    await expect(client.resume(first.checkpoint!, { id: "q2", ok: true }, { toolkit })).rejects.toThrow();
    const done = await client.resume(second.checkpoint!, { id: "q2", ok: true }, { toolkit });
    expect(done.toolCalls[0]).toMatchObject({ output: "all 2 answered" });
  });

  it.each([
    [true, "told the server: declined"],
    [false, "declined/expired: question 1"],
  ])("hands a decline to the tool only when it asked for it (resumeOnDecline %s)", async (flag, output) => {
    const { tool, seen } = askingTool(1, { resumeOnDecline: flag });
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] });
    const client = createClientFromDriver(script());
    const first = await client.run("x", { toolkit });
    // The mark survives the checkpoint (JSON round trip), so a restarted host honours it too.
    const stored = JSON.parse(JSON.stringify(first.checkpoint));
    const decline: Answer = { id: "q1", ok: false, reason: "declined" };
    const done = await client.resume(stored, decline, { toolkit });
    expect(done.toolCalls[0]!.output).toBe(output);
    expect(seen).toHaveLength(flag ? 2 : 1);
  });
});
