import { describe, expect, it } from "vitest";
import { loadRunCheckpoint, type StoredCheckpoint } from "@/lib/db/runs";
import { verifyLoaded } from "@/lib/db/testing/checkpoints";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { version1Of } from "@/lib/toolnexus/testing/version-1";
import { readRunState } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

// A run an earlier release parked holds a version-1 checkpoint in its row. An answer resumes it
// as any parked run: the engine hands the row to `client.resume`, which upgrades it where it
// reads it. The rows are written here by hand, as those releases wrote them.

/** How an earlier release kept the checkpoint in the run's row. */
type StoredForm = "in rows of its own" | "in the checkpoint";

describe.each<TestProvider>(["sqlite", "postgres"])("a version-1 checkpoint stored on %s", (provider) => {
  const suite = useEngineSuite(provider);

  /** Parks a run, then rewrites its row's checkpoint as an earlier release stored it. */
  async function parkedByAnEarlierRelease(form: StoredForm) {
    const started = await startRunOnFreshThread(suite, { message: "ask me" });
    const parked = await readRunState(suite.database.db, started.runId);
    expect(parked.run.status).toBe("pending");
    const stored = parked.run.checkpoint as unknown as StoredCheckpoint;
    const today = await verifyLoaded(
      await loadRunCheckpoint({ db: suite.database.db, threadId: started.threadId, stored }),
    );
    const { messages, ...old } = version1Of(today);
    const row =
      form === "in the checkpoint" ? { ...old, messages } : { ...old, messageCount: messages.length };
    await suite.database.db.run.update({ where: { id: started.runId }, data: { checkpoint: row as never } });
    return { ...started, requestId: parked.requests[0]!.id, row };
  }

  it.each<StoredForm>(["in rows of its own", "in the checkpoint"])(
    "resumes with the answer (its transcript stored %s)",
    async (form) => {
      const { engine, log, runId, requestId, row } = await parkedByAnEarlierRelease(form);
      const stillOld = (await readRunState(suite.database.db, runId)).run.checkpoint;
      expect(stillOld).toEqual(row);
      expect(stillOld).toMatchObject({ version: 1 });
      await engine.answerRequest({
        requestId,
        answer: { ok: true, data: { name: "Ada" } },
        actor: suite.people.owner,
      });
      await engine.idle();
      const done = await readRunState(suite.database.db, runId);
      expect([done.run.status, done.run.error]).toEqual(["done", null]);
      expect(log.entries.map((entry) => entry.answer)).toEqual([
        undefined,
        { id: expect.any(String), ok: true, data: { name: "Ada" } },
      ]);
      expect(unbalancedReason(done.messages)).toBeUndefined();
      expect(done.messages.at(-1)).toEqual({ role: "assistant", content: "finished: name=Ada" });
      await engine.stop();
    },
  );

  it("refuses a changed one before the answered call runs again, and the run fails", async () => {
    const { engine, log, runId, requestId, row } = await parkedByAnEarlierRelease("in rows of its own");
    const changed = structuredClone(row);
    changed.slots[0]!.call.args = { to: "everyone" };
    await suite.database.db.run.update({ where: { id: runId }, data: { checkpoint: changed as never } });
    await engine.answerRequest({
      requestId,
      answer: { ok: true, data: { name: "Ada" } },
      actor: suite.people.owner,
    });
    await engine.idle();
    const after = await readRunState(suite.database.db, runId);
    expect([after.run.status, after.run.error]).toEqual([
      "failed",
      "Checkpoint digest does not match its contents",
    ]);
    expect(log.entries).toHaveLength(1);
    await engine.stop();
  });
});
