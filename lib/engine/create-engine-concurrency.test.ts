import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { makeTestEngine, readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { memoryLog } from "./testing/scripted-agent";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("engine on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const { freshThread } = suite;

  it("starts one run per thread at a time, even when starts race", async () => {
    const threadId = await freshThread();
    const engine = makeTestEngine({ db: suite.database.db, log: memoryLog() });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        engine.startRun({ threadId, userId: suite.people.owner.id, message: "ask us" }),
      ),
    );
    await engine.idle();
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused.every((o) => isAppError(o.reason, "conflict:run_busy"))).toBe(true);
    expect(await suite.database.db.run.count({ where: { threadId } })).toBe(1);
    const stranger = await rejection(
      engine.startRun({ threadId, userId: suite.people.stranger.id, message: "hi" }),
    );
    expect(isAppError(stranger, "not_found:thread")).toBe(true);
    const unknown = await rejection(
      engine.startRun({ threadId: "nope", userId: suite.people.owner.id, message: "hi" }),
    );
    expect(isAppError(unknown, "not_found:thread")).toBe(true);
    await engine.stop();
  });

  it("lets exactly one of 50 concurrent answers win", async () => {
    const { engine, log, runId } = await startRunOnFreshThread(suite, { message: "ask now" });
    const [request] = (await readRunState(suite.database.db, runId)).requests;

    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        engine.answerRequest({
          requestId: request!.id,
          answer: { ok: true, data: { name: `Racer ${i}` } },
          actor: suite.people.owner,
        }),
      ),
    );
    await engine.idle();
    const accepted = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(49);
    expect(refused.every((o) => isAppError(o.reason, "conflict:answer"))).toBe(true);
    expect(await suite.database.db.answer.count({ where: { requestRowId: request!.id } })).toBe(1);
    expect(log.entries.filter((e) => e.tool === "ask_name" && e.answer)).toHaveLength(1);
    const done = await readRunState(suite.database.db, runId);
    expect(done.run.status).toBe("done");
    expect(done.events.filter((e) => e.type === "request_resolved")).toHaveLength(1);
    await engine.stop();
  });
});
