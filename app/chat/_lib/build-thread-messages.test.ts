import { describe, expect, it } from "vitest";
import { buildThreadMessages } from "./build-thread-messages";
import { eventLog, parkedApproval } from "./thread-events.fixture";

describe("buildThreadMessages", () => {
  it("pairs each user message with its run's assistant message, in order", async () => {
    const events = eventLog("t1", [
      { runId: "r1", type: "user_message", content: "hello" },
      { runId: "r1", type: "text", delta: "Hi " },
      { runId: "r1", type: "text", delta: "there." },
      { runId: "r1", type: "run_finished", status: "done", text: "Hi there." },
      { runId: "r2", type: "user_message", content: "deploy to production" },
      { runId: "r2", type: "tool_call", toolCallId: "call-1", name: "deploy", args: { env: "production" } },
      { runId: "r2", type: "pending", requests: [parkedApproval("r2")] },
      { runId: "r2", type: "request_resolved", id: "req-1", status: "expired", ok: false, reason: "expired" },
    ]);
    const messages = await buildThreadMessages(events);
    expect(messages.map((m) => [m.id, m.role])).toEqual([
      ["user-r1", "user"],
      ["run-r1", "assistant"],
      ["user-r2", "user"],
      ["run-r2", "assistant"],
    ]);
    expect(messages[1]!.parts).toEqual([
      { type: "text", text: "Hi there.", state: "done" },
      { type: "data-run", id: "r1", data: { runId: "r1", status: "done" } },
    ]);
    const cards = messages[3]!.parts.filter((p) => p.type === "data-request");
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({
      id: "req-1",
      data: { view: { status: "expired" }, resolution: { status: "expired", reason: "expired" } },
    });
    const tools = messages[3]!.parts.filter((p) => p.type === "data-tool");
    expect(tools).toEqual([
      {
        type: "data-tool",
        id: "call-1",
        data: { toolCallId: "call-1", name: "deploy", args: { env: "production" }, state: "waiting" },
      },
    ]);
  });
});
