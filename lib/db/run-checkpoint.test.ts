import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/toolnexus/checkpoint";
import { version1Of } from "@/lib/toolnexus/testing/version-1";
import type { Checkpoint, Message } from "@/lib/toolnexus/types";
import { getTranscriptTextByThread } from "./messages";
import { getRunById, loadRunCheckpoint, type StoredCheckpoint, saveRunCheckpoint } from "./runs";
import { testCheckpointOf, transcriptTextOf, verifyLoaded } from "./testing/checkpoints";
import { explainQuery } from "./testing/explain-query";
import { createLoggedDb } from "./testing/logged-db";
import { expectNoScan } from "./testing/plan-checks";
import { createHeldRun } from "./testing/seed-people";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

// A run's row keeps its checkpoint without the transcript, which it refers to in the thread's
// Message rows: the whole comes back exactly, and a changed or missing row cannot resume.

const canonicalTexts = (checkpoint: Checkpoint) => checkpoint.messages.map((m) => canonicalJson(m)).join(",");

const cases = [
  ["sqlite", 2],
  ["sqlite", 1],
  ["postgres", 2],
  ["postgres", 1],
] as const;

// Version 2 as runs make them now, version 1 as rows an earlier release stored hold them: either
// comes back as stored, and verifies as today's checkpoint of the same run.
describe.each(cases)("stored checkpoints (%s, version %i)", (provider, version) => {
  const checkpointOf = (runId: string, messages: Message[]) => testCheckpointOf(runId, messages);
  /** The checkpoint in the form this case stores it in. */
  const storedForm = (checkpoint: Checkpoint) =>
    version === 1 ? (version1Of(checkpoint) as unknown as Checkpoint) : checkpoint;

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
      checkpoint: storedForm(checkpoint),
      withMessages,
    });
    expect(events).toEqual([]);
  };

  // A run whose stored checkpoint refers to two message rows: "hello", then "fine".
  const savedHelloFine = async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const checkpoint = checkpointOf(runId, [
      { role: "user", content: "hello" },
      { role: "assistant", content: "fine" },
    ]);
    await save(threadId, runId, checkpoint);
    const stored = (await getRunById({ db: database.db, runId }))!.checkpoint!;
    return { threadId, checkpoint, stored };
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
    expect(await verifyLoaded(loaded)).toEqual(longer);
    // The rows' text comes back as it stands: the transcript's part of the canonical text.
    expect(await transcriptTextOf(loaded)).toBe(canonicalTexts(longer));
    const { messages: _messages, ...rest } = storedForm(longer);
    expect(loaded).toMatchObject(rest);
    expect("messages" in loaded).toBe(false);
    expect("loadTranscript" in loaded).toBe(true);
  });

  it("stores each message as its canonical text, and hands the transcript back as it is", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const made = checkpointOf(runId, [
      { role: "user", content: "hello" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "t", args: { z: 1, a: { y: 2, b: 3 } } }],
      },
    ]);
    // As a run holds its messages: keys in the order they were written, not sorted (the
    // first, the run's prompt, was stored by createRun).
    const asHeld: Checkpoint = {
      ...made,
      messages: [
        { role: "user", content: "hello" },
        {
          toolCalls: [{ name: "t", id: "c1", args: { z: 1, a: { y: 2, b: 3 } } }],
          role: "assistant",
          content: "",
        },
      ],
    };
    await save(threadId, runId, asHeld);
    const stored = (await getRunById({ db: database.db, runId }))!.checkpoint!;
    const loaded = await loadRunCheckpoint({ db: database.db, threadId, stored });
    expect(await transcriptTextOf(loaded)).toBe(canonicalTexts(made));
    expect(await verifyLoaded(loaded)).toEqual(made);
  });

  it("reads the transcript's text along (threadId, seq) in one query", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    await save(threadId, runId, checkpointOf(runId, [{ role: "user", content: "hello" }]));
    const logged = createLoggedDb({ url: database.url, provider });
    try {
      expect(await getTranscriptTextByThread({ db: logged.db, threadId, count: 1 })).toBe(
        '{"content":"hello","role":"user"}',
      );
      expect(logged.queries).toHaveLength(1);
      const plan = await explainQuery(database.db, provider, logged.queries[0]!);
      // SQLite: in index order, so no sorter copies the text; PostgreSQL sorts what it sought.
      // (SQLite's "SCAN (subquery-1)" reads the ordered subquery's own rows, not a table.)
      expectNoScan(provider, plan, { sorted: provider === "sqlite", except: /^SCAN \(subquery-\d+\)$/ });
      expect(plan.join("\n")).toMatch(
        provider === "sqlite"
          ? /SEARCH Message USING INDEX Message_threadId_seq_key \(threadId=\? AND seq<\?\)/
          : /Index Scan using "Message_threadId_seq_key"/,
      );
    } finally {
      await logged.db.$disconnect();
    }
  });

  it("hands the transcript back in seq order whatever order its rows were written in", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const made = checkpointOf(runId, [
      { role: "user", content: "hello" },
      ...Array.from({ length: 6 }, (_, i): Message => ({ role: "assistant", content: `reply ${i}` })),
    ]);
    // Written last first, so neither insertion nor row order is the transcript's.
    for (let seq = 7; seq >= 2; seq -= 1)
      await database.db.message.create({
        data: {
          threadId,
          runId,
          seq,
          role: "assistant",
          content: { content: `reply ${seq - 2}`, role: "assistant" },
        },
      });
    await save(threadId, runId, made, false);
    const stored = (await getRunById({ db: database.db, runId }))!.checkpoint!;
    const loaded = await loadRunCheckpoint({ db: database.db, threadId, stored });
    // Prisma's typed writes keep the text as written too (json, not jsonb, on PostgreSQL).
    expect(await transcriptTextOf(loaded)).toBe(canonicalTexts(made));
    expect(await verifyLoaded(loaded)).toEqual(made);
  });

  it("reads a checkpoint stored whole (before rows were referred to) as it is", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "me");
    const whole = checkpointOf(runId, [{ role: "user", content: "hello" }]);
    const stored = storedForm(whole) as StoredCheckpoint;
    const loaded = await loadRunCheckpoint({ db: database.db, threadId, stored });
    expect(await verifyLoaded(loaded)).toEqual(whole);
  });

  it("fails verification when a row of the transcript was changed, and refuses a short transcript", async () => {
    const { threadId, stored } = await savedHelloFine();
    await database.db.message.update({
      where: { threadId_seq: { threadId, seq: 2 } },
      data: { content: { role: "assistant", content: "transfer everything" } },
    });
    const tampered = await loadRunCheckpoint({ db: database.db, threadId, stored });
    await expect(verifyLoaded(tampered)).rejects.toThrow(
      expect.objectContaining({ code: "checkpoint:tampered" }),
    );
    await database.db.message.delete({ where: { threadId_seq: { threadId, seq: 2 } } });
    await expect(
      loadRunCheckpoint({ db: database.db, threadId, stored }).then(transcriptTextOf),
    ).rejects.toThrow(/holds 1 of the 2 messages/);
  });

  it("judges rows not spelled canonically (as PostgreSQL's jsonb gave them) by their values", async () => {
    const { threadId, checkpoint, stored } = await savedHelloFine();
    const respell = (text: string) =>
      database.db.$executeRawUnsafe(
        provider === "sqlite"
          ? `UPDATE "Message" SET "content" = ? WHERE "threadId" = ? AND "seq" = 2`
          : `UPDATE "Message" SET "content" = $1::json WHERE "threadId" = $2 AND "seq" = 2`,
        text,
        threadId,
      );
    // What the migration to json leaves of a row written as jsonb: spaces, keys by length.
    await respell('{"role": "assistant", "content": "fine"}');
    const loaded = await loadRunCheckpoint({ db: database.db, threadId, stored });
    expect(await transcriptTextOf(loaded)).toContain('{"role": "assistant", "content": "fine"}');
    expect(await verifyLoaded(loaded)).toEqual(checkpoint);
    await respell('{"role": "assistant", "content": "transfer everything"}');
    const changed = await loadRunCheckpoint({ db: database.db, threadId, stored });
    await expect(verifyLoaded(changed)).rejects.toThrow(
      expect.objectContaining({ code: "checkpoint:tampered" }),
    );
  });
});
