import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEvents, listEventsAfterSeq } from "@/lib/db/events";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { ThreadEvent } from "@/lib/domain/events";
import { announceChangeWithoutEvent, createMemoryEventBus } from "./event-bus";
import { type LoadEventsAfter, subscribeThread } from "./subscribe-thread";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { memoryLog } from "./testing/scripted-agent";

async function collectUntil(events: AsyncIterable<ThreadEvent>, stop: (event: ThreadEvent) => boolean) {
  const seen: ThreadEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (stop(event)) break;
  }
  return seen;
}

describe.each<TestProvider>(["sqlite", "postgres"])("subscribe on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("replays exactly the events missed while disconnected", async () => {
    const people = await seedPeople(database.db);
    const engine = makeTestEngine({ db: database.db, log: memoryLog() });
    const { runId } = await engine.startRun({
      threadId: people.threadId,
      userId: people.owner.id,
      message: "ask me",
    });

    const disconnect = new AbortController();
    const before = await collectUntil(
      engine.subscribe({ threadId: people.threadId, afterSeq: 0, signal: disconnect.signal }),
      (event) => event.type === "pending",
    );
    disconnect.abort();
    expect(before.map((e) => e.seq)).toEqual(before.map((_, i) => i + 1));
    expect(before[0]).toMatchObject({ type: "user_message", content: "ask me", runId });

    const [request] = (await readRunState(database.db, runId)).requests;
    await engine.answerRequest({
      requestId: request!.id,
      answer: { ok: true, data: { name: "Cy" } },
      actor: people.owner,
    });
    await engine.idle();

    const lastSeen = before.at(-1)!.seq;
    const missed = await collectUntil(
      engine.subscribe({ threadId: people.threadId, afterSeq: lastSeen }),
      (event) => event.type === "run_finished",
    );
    const stored = (await readRunState(database.db, runId)).events.filter((row) => row.seq > lastSeen);
    expect(missed.map((e) => e.seq)).toEqual(stored.map((row) => row.seq));
    expect(missed.map((e) => e.type)).toEqual(stored.map((row) => row.type));
    expect(missed[0]!.seq).toBe(lastSeen + 1);
    expect(missed.map((e) => e.type)).toEqual(
      expect.arrayContaining(["request_resolved", "tool_result", "text", "run_finished"]),
    );
    await engine.stop();
  });

  it("delivers a resumed run's events live, in order, once each", async () => {
    const people = await seedPeople(database.db);
    const engine = makeTestEngine({ db: database.db, log: memoryLog() });
    const { runId } = await engine.startRun({
      threadId: people.threadId,
      userId: people.owner.id,
      message: "ask you",
    });
    await engine.idle();
    const parked = await readRunState(database.db, runId);
    const watching = collectUntil(
      engine.subscribe({ threadId: people.threadId, afterSeq: parked.events.length }),
      (event) => event.type === "run_finished",
    );
    await engine.answerRequest({
      requestId: parked.requests[0]!.id,
      answer: { ok: true, data: { name: "Di" } },
      actor: people.owner,
    });
    const live = await watching;
    await engine.idle();
    const stored = (await readRunState(database.db, runId)).events.filter(
      (row) => row.seq > parked.events.length,
    );
    expect(live.map((e) => e.seq)).toEqual(stored.map((row) => row.seq));
    expect(live.at(-1)).toMatchObject({ type: "run_finished", status: "done", text: "finished: name=Di" });
    await engine.stop();
  });

  it("fills a hole in live delivery from the rows and drops stale notices", async () => {
    const people = await seedPeople(database.db);
    const { threadId } = people;
    const bus = createMemoryEventBus();
    let reads = 0;
    let firstRead!: () => void;
    const initialReadDone = new Promise<void>((resolve) => {
      firstRead = resolve;
    });
    const loadEventsAfter: LoadEventsAfter = async (query) => {
      const rows = await listEventsAfterSeq({ db: database.db, ...query });
      reads += 1;
      if (reads === 1) firstRead();
      return rows;
    };
    const stop = new AbortController();
    const events = subscribeThread({ bus, loadEventsAfter }, { threadId, signal: stop.signal })[
      Symbol.asyncIterator
    ]();
    const append = (delta: string) =>
      database.db.$transaction((tx) =>
        appendEvents({ tx, threadId, runId: null, bodies: [{ type: "text", delta }] }),
      );

    const firstNext = events.next();
    await initialReadDone;
    const [one] = await append("a");
    const [two] = await append("b");
    const [three] = await append("c");
    // Only the newest is announced, carrying its event: seqs 1 and 2 must come from the rows.
    await bus.publish({ threadId, seq: three!.seq, event: three! });
    const seen = [(await firstNext).value, (await events.next()).value, (await events.next()).value];
    expect(seen.map((e) => e?.seq)).toEqual([1, 2, 3]);
    expect(reads).toBe(2);

    await bus.publish({ threadId, seq: one!.seq, event: one! });
    await bus.publish({ threadId, seq: two!.seq });
    const [four] = await append("d");
    await bus.publish({ threadId, seq: four!.seq, event: four! });
    expect((await events.next()).value).toMatchObject({ seq: 4, type: "text", delta: "d" });
    // The next contiguous event arrived with its notice, so no read was needed.
    expect(reads).toBe(2);
    stop.abort();
    expect((await events.next()).done).toBe(true);
  });

  it("tells of a change without an event, and of nothing an event announces", async () => {
    const { threadId } = await seedPeople(database.db);
    const bus = createMemoryEventBus();
    const stop = new AbortController();
    let changes = 0;
    const loadEventsAfter: LoadEventsAfter = (query) => listEventsAfterSeq({ db: database.db, ...query });
    const events = subscribeThread(
      { bus, loadEventsAfter },
      { threadId, signal: stop.signal, onChange: () => changes++ },
    )[Symbol.asyncIterator]();
    const next = events.next();
    const [event] = await database.db.$transaction((tx) =>
      appendEvents({ tx, threadId, runId: null, bodies: [{ type: "text", delta: "a" }] }),
    );
    await bus.publish({ threadId, seq: event!.seq, event: event! });
    expect((await next).value).toMatchObject({ seq: event!.seq });
    await bus.publish({ threadId: "another thread", seq: 0 });
    expect(changes).toBe(0);
    // A vote, a take or a fired escalation step: the thread's open requests changed, no event.
    await announceChangeWithoutEvent(bus, threadId);
    expect(changes).toBe(1);
    stop.abort();
    expect((await events.next()).done).toBe(true);
  });
});
