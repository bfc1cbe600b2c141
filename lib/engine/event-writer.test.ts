import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEvents, listEventsAfterSeq } from "@/lib/db/events";
import { engineTransaction } from "@/lib/db/sql/transaction-options";
import { createHeldRun } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createMemoryEventBus, type EventNotice } from "./event-bus";
import { createEventWriter } from "./event-writer";

describe("event writer on sqlite", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database?.drop();
  });

  const runningRun = () => createHeldRun(database.db, "writer-test");
  // A long flush interval: nothing may be written by the timer while a test runs.
  const writerFor = (
    { threadId, runId }: { threadId: string; runId: string },
    bus = createMemoryEventBus(),
  ) =>
    createEventWriter({
      db: database.db,
      bus,
      threadId,
      runId,
      leaseOwner: "writer-test",
      textFlushMs: 60_000,
    });

  it("hands gathered events to the next store, stores them ahead of its own, and publishes them in order", async () => {
    const { threadId, runId } = await runningRun();
    const bus = createMemoryEventBus();
    const heard: EventNotice[] = [];
    bus.listen(threadId, (notice) => heard.push(notice));
    const writer = writerFor({ threadId, runId }, bus);
    writer.text("Let me ");
    writer.text("check.");
    writer.push({ type: "tool_call", toolCallId: "c1", name: "lookup", args: { q: 1 } });

    let handed: string[] = [];
    await writer.storeWith(async (bodies) => {
      handed = bodies.map((body) => body.type);
      return database.db.$transaction(
        (tx) =>
          appendEvents({
            tx,
            threadId,
            runId,
            bodies: [...bodies, { type: "run_status", status: "pending" }],
          }),
        engineTransaction,
      );
    });
    expect(handed).toEqual(["text", "tool_call"]);

    const stored = await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0 });
    const types = stored.map((event) => event.type);
    expect(types.slice(-3)).toEqual(["text", "tool_call", "run_status"]);
    expect(stored.at(-3)).toMatchObject({ delta: "Let me check." });
    expect(heard.map((notice) => notice.seq)).toEqual(stored.slice(-3).map((event) => event.seq));
  });

  it("queues the events again when the store fails, so the next write still stores them", async () => {
    const { threadId, runId } = await runningRun();
    const writer = writerFor({ threadId, runId });
    writer.push({ type: "tool_call", toolCallId: "c1", name: "lookup", args: {} });
    const failed = writer.storeWith(async () => {
      throw new Error("rolled back");
    });
    await expect(failed).rejects.toThrow("rolled back");
    writer.push({ type: "tool_result", toolCallId: "c1", name: "lookup", output: "ok", isError: false });
    await writer.flush();

    const stored = await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0 });
    expect(stored.map((event) => event.type).slice(-2)).toEqual(["tool_call", "tool_result"]);
  });

  it("stores only the events before a position with a store, and says where the last of them went", async () => {
    const { threadId, runId } = await runningRun();
    const writer = writerFor({ threadId, runId });
    writer.push({ type: "tool_call", toolCallId: "c1", name: "lookup", args: {} });
    await writer.flush();
    const safePoint = writer.position();
    // A later state's event arrives before the earlier state is stored.
    writer.push({ type: "tool_result", toolCallId: "c1", name: "lookup", output: "ok", isError: false });
    let handed: string[] = [];
    let before: number | undefined;
    await writer.storeWith(async (bodies) => {
      handed = bodies.map((body) => body.type);
      before = writer.lastStoredSeqBefore(safePoint);
      return [];
    }, safePoint);
    expect(handed).toEqual([]);
    const call = (await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0 })).at(-1)!;
    expect(call.type).toBe("tool_call");
    expect(before).toBe(call.seq);
    // The later event is still owed, and goes out with the next write.
    await writer.flush();
    const stored = await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0 });
    expect(stored.map((event) => event.type).slice(-2)).toEqual(["tool_call", "tool_result"]);
    expect(stored.at(-1)!.seq).toBe(call.seq + 1);
    expect(writer.lastStoredSeqBefore(safePoint)).toBe(call.seq);
  });
});
