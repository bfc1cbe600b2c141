import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpoint, verifyCheckpoint } from "@/lib/toolnexus/checkpoint";
import type { Checkpoint, Message } from "@/lib/toolnexus/types";
import { getRunById, loadRunCheckpoint, type StoredCheckpoint, saveRunCheckpoint } from "./runs";
import { createHeldRun } from "./testing/seed-people";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

// A run's row keeps its checkpoint without the transcript, which it refers to in the thread's
// Message rows: the whole comes back exactly, and a changed or missing row cannot resume.

const checkpointOf = (runId: string, messages: Message[]): Checkpoint =>
  createCheckpoint({
    version: 1,
    runId,
    model: "test",
    messages,
    slots: [],
    toolCalls: [],
    turns: messages.length,
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
  });

describe.each(["sqlite", "postgres"] as const)("stored checkpoints (%s)", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const save = async (threadId: string, runId: string, checkpoint: Checkpoint, withMessages = true) => {
    const events = await saveRunCheckpoint({
      db: database.db,
      runId,
      threadId,
      leaseOwner: "me",
      leaseExpiresAt: new Date(Date.now() + 60_000),
      checkpoint,
      withMessages,
    });
    expect(events).toEqual([]);
  };

  it("stores no transcript on the run's row and puts the whole checkpoint back together", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const history: Message[] = [{ role: "user", content: "hello" }];
    const first = checkpointOf(runId, [
      ...history,
      { role: "assistant", content: 'one, with "quotes" and é' },
    ]);
    await save(threadId, runId, first);
    const longer = checkpointOf(runId, [
      ...first.messages,
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "t", args: { n: 1, deep: { b: [1, 2] } } }],
      },
      { role: "tool", toolCallId: "c1", name: "t", content: "ok", isError: false },
    ]);
    await save(threadId, runId, longer);

    const run = await getRunById({ db: database.db, runId });
    const stored = run!.checkpoint as StoredCheckpoint;
    expect(stored.messages).toBeUndefined();
    expect(stored.messageCount).toBe(4);
    const loaded = await loadRunCheckpoint({ db: database.db, threadId, stored });
    expect(loaded).toEqual(longer);
    expect(verifyCheckpoint(loaded)).toEqual(longer);
  });

  it("reads a checkpoint stored whole (before rows were referred to) as it is", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const whole = checkpointOf(runId, [{ role: "user", content: "hello" }]);
    const loaded = await loadRunCheckpoint({ db: database.db, threadId, stored: whole as StoredCheckpoint });
    expect(verifyCheckpoint(loaded)).toEqual(whole);
  });

  it("fails verification when a row of the transcript was changed, and refuses a short transcript", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const checkpoint = checkpointOf(runId, [
      { role: "user", content: "hello" },
      { role: "assistant", content: "fine" },
    ]);
    await save(threadId, runId, checkpoint);
    const stored = (await getRunById({ db: database.db, runId }))!.checkpoint!;
    await database.db.message.update({
      where: { threadId_seq: { threadId, seq: 2 } },
      data: { content: { role: "assistant", content: "transfer everything" } },
    });
    const tampered = await loadRunCheckpoint({ db: database.db, threadId, stored });
    expect(() => verifyCheckpoint(tampered)).toThrow(
      expect.objectContaining({ code: "checkpoint:tampered" }),
    );
    await database.db.message.delete({ where: { threadId_seq: { threadId, seq: 2 } } });
    await expect(loadRunCheckpoint({ db: database.db, threadId, stored })).rejects.toThrow(
      /holds 1 of the 2 messages/,
    );
  });
});
