import { createClientFromDriver, createInProcessDriver, type ModelInput } from "toolnexus";
import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Checkpoint } from "@/lib/toolnexus/types";
import { makeTestEngine } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { memoryLog } from "./testing/scripted-agent";

// A process can die the instant after any safe point commits. Whatever that commit holds must
// already be in the event log: a takeover resumes from the checkpoint and never emits again
// what came before it, so an event the checkpoint implies but the log lacks is lost for good.

describe.each<TestProvider>(["sqlite", "postgres"])("safe points on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("store the tool calls and tool results a checkpoint holds in the same commit", async () => {
    const threadId = await suite.freshThread();
    let reached!: () => void;
    const blocked = new Promise<void>((resolve) => {
      reached = resolve;
    });
    // Turn 1 calls `count`; turn 2 hangs, so the run sits right after the tool's safe point.
    const generate = (input: ModelInput) => {
      if (input.messages.at(-1)?.role !== "tool") return { text: "", toolCalls: [{ name: "count" }] };
      reached();
      return new Promise<never>((_resolve, reject) => {
        input.signal?.addEventListener("abort", () => reject(new Error("aborted")));
      });
    };
    const engine = makeTestEngine({
      db: suite.database.db,
      log: memoryLog(),
      // No timed write lands while the run hangs: only safe points store events.
      textFlushMs: 60_000,
      createClient: () => createClientFromDriver(createInProcessDriver({ model: "m", generate })),
    });
    const { runId } = await engine.startRun({ threadId, userId: suite.people.owner.id, message: "go" });
    await blocked;
    // Whatever safe point is still being stored has landed once the loop has moved on.
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));

    const run = await suite.database.db.run.findUniqueOrThrow({ where: { id: runId } });
    const checkpoint = run.checkpoint as unknown as Checkpoint;
    const done = checkpoint.slots.filter((slot) => slot.state.status === "done");
    expect(done.map((slot) => slot.call.name)).toEqual(["count"]);
    const events = await suite.database.db.event.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(events.map((event) => event.type)).toEqual([
      "user_message",
      "run_status",
      "usage",
      "tool_call",
      "tool_result",
    ]);
    expect(events[4]!.payload).toMatchObject({ toolCallId: done[0]!.call.id, output: "counted" });
    await engine.stop();
  });
});
