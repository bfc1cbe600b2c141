import { describe, expect, it } from "vitest";
import { RunChunkTranslator } from "./run-chunk-translator";
import { eventLog, parkedApproval } from "./thread-events.fixture";

const parkedRun = eventLog("t1", [
  { runId: "r1", type: "user_message", content: "deploy to production" },
  { runId: "r1", type: "run_status", status: "running" },
  { runId: "r1", type: "text", delta: "Starting " },
  { runId: "r1", type: "text", delta: "the deploy." },
  { runId: "r1", type: "tool_call", toolCallId: "call-1", name: "deploy", args: { env: "production" } },
  { runId: "r1", type: "usage", usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
  { runId: "r1", type: "pending", requests: [parkedApproval("r1")] },
]);

describe("RunChunkTranslator", () => {
  it("streams text, tool cards and the pending request as one assistant message", () => {
    const translator = new RunChunkTranslator("r1");
    const chunks = parkedRun.flatMap((event) => translator.push(event));
    expect(chunks.map((c) => c.type)).toEqual([
      "start",
      "data-run",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "data-tool",
      "data-request",
      "data-tool",
      "data-run",
    ]);
    expect(chunks.at(-1)).toEqual({ type: "data-run", id: "r1", data: { runId: "r1", status: "pending" } });
    expect(chunks[0]).toEqual({ type: "start", messageId: "run-r1" });
    const lastTool = chunks.filter((c) => c.type === "data-tool").at(-1);
    expect(lastTool).toMatchObject({ id: "call-1", data: { state: "waiting", args: { env: "production" } } });
    expect(translator.finished).toBe(false);
  });

  it("replaces the request card when it is resolved and finishes with the run", () => {
    const translator = new RunChunkTranslator("r1");
    for (const event of parkedRun) translator.push(event);
    const tail = eventLog("t1", [
      { runId: "r1", type: "request_resolved", id: "req-1", status: "answered", ok: true, actorId: "u-rev" },
      {
        runId: "r1",
        type: "tool_result",
        toolCallId: "call-1",
        name: "deploy",
        output: "deployed",
        isError: false,
      },
      { runId: "r1", type: "text", delta: "Done." },
      { runId: "r1", type: "run_finished", status: "done", text: "Done." },
    ]).map((event, i) => ({ ...event, seq: parkedRun.length + i + 1 }));
    const chunks = tail.flatMap((event) => translator.push(event));
    expect(chunks[0]).toMatchObject({
      type: "data-request",
      id: "req-1",
      data: { view: { status: "answered" }, resolution: { status: "answered", ok: true, actorId: "u-rev" } },
    });
    // Activity after the park means the run is going again.
    expect(chunks[1]).toEqual({ type: "data-run", id: "r1", data: { runId: "r1", status: "running" } });
    expect(chunks[2]).toMatchObject({ type: "data-tool", data: { state: "done", output: "deployed" } });
    expect(chunks.at(-1)).toEqual({ type: "finish" });
    expect(translator.finished).toBe(true);
    expect(translator.push({ ...tail[0]!, seq: 99 })).toEqual([]);
  });

  it("shows a cancel as a cancelled request and tool, then finishes the run as cancelled", () => {
    const translator = new RunChunkTranslator("r1");
    for (const event of parkedRun) translator.push(event);
    const tail = eventLog("t1", [
      {
        runId: "r1",
        type: "request_resolved",
        id: "req-1",
        status: "cancelled",
        ok: false,
        reason: "cancelled",
        actorId: "u-owner",
      },
      { runId: "r1", type: "run_finished", status: "cancelled", text: "" },
    ]).map((event, i) => ({ ...event, seq: parkedRun.length + i + 1 }));
    const chunks = tail.flatMap((event) => translator.push(event));
    expect(chunks.map((c) => c.type)).toEqual(["data-request", "data-tool", "data-run", "finish"]);
    expect(chunks[0]).toMatchObject({
      id: "req-1",
      data: {
        view: { status: "cancelled" },
        resolution: { status: "cancelled", ok: false, reason: "cancelled", actorId: "u-owner" },
      },
    });
    expect(chunks[1]).toMatchObject({ id: "call-1", data: { name: "deploy", state: "cancelled" } });
    expect(chunks[2]).toEqual({ type: "data-run", id: "r1", data: { runId: "r1", status: "cancelled" } });
    expect(translator.finished).toBe(true);
  });

  it("leaves finished calls alone when a run is cancelled", () => {
    const translator = new RunChunkTranslator("r1");
    const chunks = eventLog("t1", [
      { runId: "r1", type: "tool_call", toolCallId: "call-1", name: "lookup", args: {} },
      {
        runId: "r1",
        type: "tool_result",
        toolCallId: "call-1",
        name: "lookup",
        output: "ok",
        isError: false,
      },
      { runId: "r1", type: "tool_call", toolCallId: "call-2", name: "slow", args: {} },
      { runId: "r1", type: "run_finished", status: "cancelled", text: "" },
    ]).flatMap((event) => translator.push(event));
    const last = new Map(
      chunks.flatMap((c) => (c.type === "data-tool" ? [[c.id, c.data.state] as const] : [])),
    );
    expect(Object.fromEntries(last)).toEqual({ "call-1": "done", "call-2": "cancelled" });
  });

  it("ignores other runs' events", () => {
    const translator = new RunChunkTranslator("r2");
    expect(parkedRun.flatMap((event) => translator.push(event))).toEqual([]);
  });

  it("keeps a failure's message on the final run card", () => {
    const translator = new RunChunkTranslator("r1");
    const chunks = eventLog("t1", [
      { runId: "r1", type: "run_status", status: "failed", error: "The model is unreachable." },
      { runId: "r1", type: "run_finished", status: "failed", text: "" },
    ]).flatMap((event) => translator.push(event));
    expect(chunks.at(-2)).toEqual({
      type: "data-run",
      id: "r1",
      data: { runId: "r1", status: "failed", error: "The model is unreachable." },
    });
  });
});
