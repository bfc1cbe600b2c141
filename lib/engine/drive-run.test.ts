import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { chatterWords } from "./testing/scripted-agent";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("a failing run on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("ends failed with a safe message, a balanced transcript, and a free thread", async () => {
    const { engine, threadId, runId } = await startRunOnFreshThread(suite, { message: "explode now" });

    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("failed");
    expect(state.run.error).toBe("The run stopped because of an internal error.");
    expect(JSON.stringify(state.events)).not.toContain("hunter2");
    expect(state.events.slice(-2).map((e) => [e.type, e.payload])).toEqual([
      ["run_status", { status: "failed", error: "The run stopped because of an internal error." }],
      ["run_finished", { status: "failed", text: "" }],
    ]);
    expect(state.messages.at(-1)).toMatchObject({ role: "tool", name: "count", content: "counted" });
    expect(unbalancedReason(state.messages)).toBeUndefined();

    const next = await engine.startRun({ threadId, userId: suite.people.owner.id, message: "hello" });
    await engine.idle();
    const after = await readRunState(suite.database.db, next.runId);
    expect(after.run.status).toBe("done");
    expect(unbalancedReason(after.messages)).toBeUndefined();
    await engine.stop();
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])("a reused request id on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("stops the run instead of applying an old answer to a new request", async () => {
    const { engine, log, runId } = await startRunOnFreshThread(suite, { message: "twice please" });
    const [first] = (await readRunState(suite.database.db, runId)).requests;
    await engine.answerRequest({ requestId: first!.id, answer: { ok: true }, actor: suite.people.reviewer });
    await engine.idle();

    const state = await readRunState(suite.database.db, runId);
    expect(state.run.status).toBe("failed");
    expect(state.run.error).toContain('"fixed-approval"');
    expect(state.requests).toHaveLength(1);
    expect(log.entries.map((e) => [e.tool, e.answer === undefined ? "asked" : "retried"])).toEqual([
      ["approve_fixed", "asked"],
      ["approve_fixed", "retried"],
      ["approve_fixed", "asked"],
    ]);
    expect(unbalancedReason(state.messages)).toBeUndefined();
    await engine.stop();
  });
});

describe("streamed text", () => {
  const suite = useEngineSuite("sqlite");

  it("is gathered into a few events that add up to exactly what the model said", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, {
      message: "chatter away",
      textFlushMs: 1_000,
    });
    const state = await readRunState(suite.database.db, runId);
    const texts = state.events
      .filter((e) => e.type === "text")
      .map((e) => (e.payload as { delta: string }).delta);
    expect(texts.join("")).toBe(chatterWords.join(""));
    expect(texts.length).toBeLessThan(chatterWords.length);
    expect(state.messages.at(-1)).toEqual({ role: "assistant", content: chatterWords.join("") });
    await engine.stop();
  });
});
