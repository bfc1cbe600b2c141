import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { defineTool } from "./define-tool";
import { pending } from "./pending";
import { expectBalanced } from "./testing/expect-balanced";
import { oneToolTurn } from "./testing/one-tool-turn";
import { recorder } from "./testing/recorder";
import { RUN_MODES, resumeIn, runIn } from "./testing/run-modes";
import { createToolkit } from "./toolkit";
import type { Checkpoint } from "./types";

describe.each(RUN_MODES)("durable halt and resume (%s)", (mode) => {
  it("halts on the first suspension in tool-call order and keeps later calls out of the transcript", async () => {
    const r = recorder();
    const driver = oneToolTurn("before", "a", "b", "after");
    const client = createClientFromDriver(driver);
    const toolkit = await createToolkit({
      builtins: false,
      extraTools: [
        r.plain("before"),
        r.approval("a", { url: "https://idp.test/x" }),
        r.approval("b"),
        r.plain("after"),
      ],
    });
    const { result, events } = await runIn(mode, client, "go", { toolkit });

    expect(result.status).toBe("pending");
    expect(result.pending).toEqual({
      id: "req-a",
      kind: "approval",
      prompt: "approve a",
      url: "https://idp.test/x",
    });
    expect(result.suspended!.map((q) => q.id)).toEqual(["req-a", "req-b"]);
    expect(result.pending).toEqual(result.suspended![0]);
    expect(result.text).toBe("approve a");
    expect(result.toolCalls.map((c) => [c.name, c.output, c.isError])).toEqual([
      ["before", "before ran", false],
      ["a", "approve a", true],
    ]);
    expect(result.toolCallCount).toBe(2);
    expect(result.transcript.slice(-2)).toEqual([
      { role: "tool", toolCallId: "c1", name: "before", content: "before ran", isError: false },
      { role: "tool", toolCallId: "c2", name: "a", content: "approve a", isError: true },
    ]);
    // Every call of the turn still ran once; "after" finished and is kept in the checkpoint.
    expect(r.runs).toEqual({ before: 1, a: 1, b: 1, after: 1 });
    expect(result.checkpoint!.slots.map((s) => s.state.status)).toEqual([
      "done",
      "suspended",
      "suspended",
      "done",
    ]);
    expect(driver.inputs).toHaveLength(1);
    if (mode === "stream") {
      const shape = events
        .filter((e) => e.type !== "usage")
        .map((e) => {
          if (e.type === "pending") return `pending:${e.request.id}`;
          return "id" in e ? `${e.type}:${e.id}` : e.type;
        });
      expect(shape.filter((s) => s.startsWith("tool_result"))).toEqual(["tool_result:c1"]);
      expect(shape.filter((s) => s.startsWith("pending"))).toEqual(["pending:req-a", "pending:req-b"]);
      expect(shape.at(-1)).toBe("done");
    }
  });

  it("resumes with an answer: the tool sees ctx.answer, no new user turn, balanced transcripts", async () => {
    const r = recorder();
    const driver = oneToolTurn("deploy");
    const client = createClientFromDriver(driver);
    const toolkit = await createToolkit({ builtins: false, extraTools: [r.approval("deploy")] });
    const halted = (await runIn(mode, client, "ship it", { toolkit, runId: "run-9" })).result;
    const checkpoint = JSON.parse(JSON.stringify(halted.checkpoint)) as Checkpoint;

    const { result, events } = await resumeIn(
      mode,
      client,
      checkpoint,
      { id: "req-deploy", ok: true, data: { by: "ana" } },
      { toolkit },
    );
    expect(result.status).toBe("done");
    expect(result.text).toBe("summary: deploy approved by ana");
    expect(r.contexts.deploy!.map((c) => c?.answer)).toEqual([
      undefined,
      { id: "req-deploy", ok: true, data: { by: "ana" } },
    ]);
    expect(r.contexts.deploy!.map((c) => c?.idempotencyKey)).toEqual(["run-9:c1", "run-9:c1"]);
    expect(result.toolCalls).toEqual([
      { id: "c1", name: "deploy", args: {}, output: "deploy approved by ana", isError: false },
    ]);
    expect(result.turns).toBe(2);
    expect(result.usage.totalTokens).toBe(4);
    expect(result.transcript.filter((m) => m.role === "user")).toEqual([
      { role: "user", content: "ship it" },
    ]);
    expect(driver.inputs[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expectBalanced(driver.inputs);
    if (mode === "stream") {
      expect(events.map((e) => e.type).filter((t) => t !== "text")).toEqual(["tool_result", "usage", "done"]);
    }
  });

  it("takes answers in any order: finished calls never re-run, unanswered ones halt again", async () => {
    const r = recorder();
    const driver = oneToolTurn("a", "b", "third");
    const client = createClientFromDriver(driver);
    const toolkit = await createToolkit({
      builtins: false,
      extraTools: [r.approval("a"), r.approval("b"), r.plain("third")],
    });
    const first = (await runIn(mode, client, "go", { toolkit })).result;
    expect(first.suspended!.map((q) => q.id)).toEqual(["req-a", "req-b"]);

    const second = (
      await resumeIn(
        mode,
        client,
        first.checkpoint!,
        { id: "req-b", ok: true, data: { by: "bo" } },
        { toolkit },
      )
    ).result;
    expect(second.status).toBe("pending");
    expect(second.pending!.id).toBe("req-a");
    expect(second.suspended!.map((q) => q.id)).toEqual(["req-a"]);
    expect(second.toolCalls.map((c) => c.name)).toEqual(["a"]);
    expect(r.runs).toEqual({ a: 1, b: 2, third: 1 });

    const third = (
      await resumeIn(mode, client, second.checkpoint!, [{ id: "req-a", ok: true, data: { by: "al" } }], {
        toolkit,
      })
    ).result;
    expect(third.status).toBe("done");
    expect(third.toolCalls.map((c) => c.output)).toEqual([
      "a approved by al",
      "b approved by bo",
      "third ran",
    ]);
    expect(r.runs).toEqual({ a: 2, b: 2, third: 1 });
    expect(driver.inputs).toHaveLength(2);
    expectBalanced(driver.inputs);
  });

  it("answers every parked request at once", async () => {
    const r = recorder();
    const client = createClientFromDriver(oneToolTurn("a", "b"));
    const toolkit = await createToolkit({ builtins: false, extraTools: [r.approval("a"), r.approval("b")] });
    const halted = (await runIn(mode, client, "go", { toolkit })).result;
    const { result } = await resumeIn(
      mode,
      client,
      halted.checkpoint!,
      [
        { id: "req-b", ok: false, reason: "declined" },
        { id: "req-a", ok: true },
      ],
      { toolkit },
    );
    expect(result.status).toBe("done");
    expect(result.toolCalls.map((c) => c.output)).toEqual([
      "a approved by nobody",
      "declined/expired: approve b",
    ]);
    expect(r.runs).toEqual({ a: 2, b: 1 });
  });

  it("feeds back unresolved when a resumed retry suspends again", async () => {
    const stubborn = defineTool({
      name: "s",
      description: "d",
      run: () => pending({ kind: "approval", prompt: "again?" }),
    });
    const client = createClientFromDriver(oneToolTurn("s"));
    const toolkit = await createToolkit({ builtins: false, extraTools: [stubborn] });
    const halted = (await runIn(mode, client, "go", { toolkit })).result;
    const { result } = await resumeIn(
      mode,
      client,
      halted.checkpoint!,
      { id: halted.pending!.id, ok: true },
      { toolkit },
    );
    expect(result.status).toBe("done");
    expect(result.toolCalls[0]!.output).toBe("unresolved: again?");
  });

  it("re-halts with the same requests when resumed without answers, running nothing", async () => {
    const r = recorder();
    const client = createClientFromDriver(oneToolTurn("a", "b"));
    const toolkit = await createToolkit({ builtins: false, extraTools: [r.approval("a"), r.approval("b")] });
    const halted = (await runIn(mode, client, "go", { toolkit })).result;
    const again = (await resumeIn(mode, client, halted.checkpoint!, [], { toolkit })).result;
    expect(again.status).toBe("pending");
    expect(again.suspended).toEqual(halted.suspended);
    expect(r.runs).toEqual({ a: 1, b: 1 });
  });

  it("uses waitFor for requests still parked when a waitFor client resumes", async () => {
    const r = recorder();
    const durable = createClientFromDriver(oneToolTurn("a", "b"));
    const toolkit = await createToolkit({ builtins: false, extraTools: [r.approval("a"), r.approval("b")] });
    const halted = (await runIn(mode, durable, "go", { toolkit })).result;
    const asked: string[] = [];
    const inProcess = createClientFromDriver(oneToolTurn("a", "b"), {
      waitFor: async (request) => {
        asked.push(request.id);
        return { id: request.id, ok: true, data: { by: "host" } };
      },
    });
    const { result } = await resumeIn(
      mode,
      inProcess,
      halted.checkpoint!,
      { id: "req-a", ok: true, data: { by: "inbox" } },
      { toolkit },
    );
    expect(asked).toEqual(["req-b"]);
    expect(result.toolCalls.map((c) => c.output)).toEqual(["a approved by inbox", "b approved by host"]);
  });
});
