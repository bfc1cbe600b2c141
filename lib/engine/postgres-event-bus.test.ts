import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import type { ThreadEvent } from "@/lib/domain/events";
import { type EventNotice, RESYNC_NOTICE } from "./event-bus";
import { createPostgresEventBus } from "./postgres-event-bus";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { memoryLog, type ToolExecution } from "./testing/scripted-agent";
import { killEngineChildren, spawnEngineChild } from "./testing/spawn-child";

/** Cuts every event bus connection to the database, the way a server restart would. */
async function dropBusConnections(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'toolnexus-events' AND pid <> pg_backend_pid()",
    );
  } finally {
    await admin.end();
  }
}

describe("two app processes on one PostgreSQL", () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    dir = mkdtempSync(path.join(tmpdir(), "toolnexus-notify-"));
  });
  afterAll(async () => {
    killEngineChildren();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows a subscriber here the events of a run answered and resumed in another process", {
    timeout: 120_000,
  }, async () => {
    const people = await seedPeople(database.db);
    const bus = await createPostgresEventBus({ connectionString: database.url, instanceId: "parent" });
    const log = memoryLog();
    const engine = makeTestEngine({ db: database.db, log, bus });
    const { runId } = await engine.startRun({
      threadId: people.threadId,
      userId: people.owner.id,
      message: "ask there",
    });
    await engine.idle();
    const parked = await readRunState(database.db, runId);

    const received: ThreadEvent[] = [];
    const watching = (async () => {
      for await (const event of engine.subscribe({
        threadId: people.threadId,
        afterSeq: parked.events.length,
      })) {
        received.push(event);
        if (event.type === "run_finished") return;
      }
    })();

    const logFile = path.join(dir, "child.jsonl");
    const child = spawnEngineChild({
      DATABASE_URL: database.url,
      LOG_FILE: logFile,
      MODE: "answer",
      REQUEST_ID: parked.requests[0]!.id,
      ACTOR: JSON.stringify(people.owner),
      ANSWER: JSON.stringify({ ok: true, data: { name: "Flo" } }),
      EXIT_WHEN_IDLE: "1",
    });
    await child.waitFor(/^exited/);
    expect(await child.exited).toBe(0);
    await watching;

    const stored = (await readRunState(database.db, runId)).events.filter(
      (row) => row.seq > parked.events.length,
    );
    expect(received.map((e) => e.seq)).toEqual(stored.map((row) => row.seq));
    expect(received.map((e) => e.seq)).toEqual(stored.map((_, i) => parked.events.length + i + 1));
    expect(received[0]).toMatchObject({
      type: "request_resolved",
      status: "answered",
      actorId: people.owner.id,
    });
    expect(received.at(-1)).toMatchObject({
      type: "run_finished",
      status: "done",
      text: "finished: name=Flo",
    });

    // The retry ran in the other process, not here.
    expect(log.entries.filter((entry) => entry.answer)).toHaveLength(0);
    const remote = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ToolExecution);
    expect(remote).toEqual([
      expect.objectContaining({ tool: "ask_name", answer: expect.objectContaining({ ok: true }) }),
    ]);

    await engine.stop();
    await bus.close();
  });

  it("carries notices between processes' buses and recovers from a dropped LISTEN connection", async () => {
    const here = await createPostgresEventBus({
      connectionString: database.url,
      instanceId: "here",
      reconnectMs: 20,
    });
    const there = await createPostgresEventBus({
      connectionString: database.url,
      instanceId: "there",
      reconnectMs: 20,
    });
    const heard: EventNotice[] = [];
    const waiters: { test: (notice: EventNotice) => boolean; resolve: () => void }[] = [];
    const heardSoon = (test: (notice: EventNotice) => boolean) =>
      new Promise<void>((resolve) => {
        if (heard.some(test)) resolve();
        else waiters.push({ test, resolve });
      });
    here.listen("thread-1", (notice) => {
      heard.push(notice);
      for (const waiter of waiters.filter((w) => w.test(notice))) waiter.resolve();
    });
    let thereReconnected!: () => void;
    const thereBack = new Promise<void>((resolve) => {
      thereReconnected = resolve;
    });
    there.listen("thread-1", (notice) => {
      if (notice.seq === 0) thereReconnected();
    });

    await there.publish({ threadId: "thread-1", seq: 1 });
    await heardSoon((n) => n.seq === 1);
    await there.publish({ threadId: "thread-2", seq: 7 });

    await dropBusConnections(database.url);
    // After reconnecting, each bus asks its subscribers to re-read what they may have missed.
    await heardSoon((n) => n.seq === 0);
    await thereBack;

    await there.publish({ threadId: "thread-1", seq: 2 });
    await heardSoon((n) => n.seq === 2);
    expect(heard.map((n) => n.seq)).toEqual([1, 0, 2]);
    expect(heard.every((n) => n.threadId === "thread-1" && n.event === undefined)).toBe(true);
    await here.close();
    await there.close();
  });

  it("announces a commit's notices to other processes once per thread, at its highest seq", async () => {
    const here = await createPostgresEventBus({ connectionString: database.url, instanceId: "here" });
    const there = await createPostgresEventBus({ connectionString: database.url, instanceId: "there" });
    const heardHere: EventNotice[] = [];
    let marker!: () => void;
    const markerHeard = new Promise<void>((resolve) => {
      marker = resolve;
    });
    for (const threadId of ["thread-1", "thread-2"]) {
      here.listen(threadId, (notice) => {
        heardHere.push(notice);
        if (notice.seq === 9) marker();
      });
    }
    const heardThere: number[] = [];
    there.listen("thread-1", (notice) => heardThere.push(notice.seq));

    const publishing = there.publish(
      { threadId: "thread-1", seq: 1 },
      { threadId: "thread-1", seq: 2 },
      { threadId: "thread-2", seq: 5 },
      { threadId: "thread-1", seq: 3 },
    );
    // Local listeners have every notice as soon as publishing starts.
    expect(heardThere).toEqual([1, 2, 3]);
    await publishing;
    // Notifications of one connection arrive in the order sent, so this one comes last.
    await there.publish({ threadId: "thread-1", seq: 9 });
    await markerHeard;
    expect(heardHere.map((n) => [n.threadId, n.seq])).toEqual([
      ["thread-1", 3],
      ["thread-2", 5],
      ["thread-1", 9],
    ]);
    await here.close();
    await there.close();
  });
  it("hands listenAll every thread's notices from other processes, and a resync after a dropped connection", async () => {
    const here = await createPostgresEventBus({
      connectionString: database.url,
      instanceId: "here",
      reconnectMs: 20,
    });
    const there = await createPostgresEventBus({ connectionString: database.url, instanceId: "there" });
    const heard: EventNotice[] = [];
    const waiters: { test: (notice: EventNotice) => boolean; resolve: () => void }[] = [];
    const heardSoon = (test: (notice: EventNotice) => boolean) =>
      new Promise<void>((resolve) => {
        if (heard.some(test)) resolve();
        else waiters.push({ test, resolve });
      });
    here.listenAll((notice) => {
      heard.push(notice);
      for (const waiter of waiters.filter((w) => w.test(notice))) waiter.resolve();
    });

    await there.publish({ threadId: "thread-a", seq: 1 }, { threadId: "thread-a", seq: 2 });
    await there.publish({ threadId: "thread-b", seq: 5 });
    await heardSoon((n) => n.threadId === "thread-b");
    // Its own publications reach it too, without waiting for the echo it ignores.
    await here.publish({ threadId: "thread-c", seq: 1 });

    await dropBusConnections(database.url);
    await heardSoon((n) => n.seq === 0);

    expect(heard).toEqual([
      { threadId: "thread-a", seq: 2 },
      { threadId: "thread-b", seq: 5 },
      { threadId: "thread-c", seq: 1 },
      RESYNC_NOTICE,
    ]);
    await here.close();
    await there.close();
  });
  it("sends overlapping publishes and signals one statement at a time, every thread at its highest seq", async () => {
    const here = await createPostgresEventBus({ connectionString: database.url, instanceId: "here" });
    const there = await createPostgresEventBus({ connectionString: database.url, instanceId: "there" });
    const highest = new Map<string, number>();
    let signalsHeard = 0;
    const expected = 40;
    let allHeard!: () => void;
    const heardAll = new Promise<void>((resolve) => {
      allHeard = resolve;
    });
    const check = () => {
      if (signalsHeard === 5 && highest.size === expected && [...highest.values()].every((seq) => seq === 3))
        allHeard();
    };
    here.listenAll((notice) => {
      highest.set(notice.threadId, Math.max(notice.seq, highest.get(notice.threadId) ?? 0));
      check();
    });
    here.listenSignals(() => {
      signalsHeard += 1;
      check();
    });
    // Watches the real client: a query issued on the LISTEN connection while another is out.
    const query = pg.Client.prototype.query;
    let overlapping = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const self = this as unknown as {
        _activeQuery: unknown;
        connectionParameters: { application_name?: string };
      };
      if (self.connectionParameters.application_name === "toolnexus-events" && self._activeQuery)
        overlapping += 1;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await Promise.all([
        ...Array.from({ length: expected }, (_, k) =>
          there.publish({ threadId: `busy-${k}`, seq: 2 }, { threadId: `busy-${k}`, seq: 1 }),
        ),
        ...Array.from({ length: expected }, (_, k) => there.publish({ threadId: `busy-${k}`, seq: 3 })),
        ...Array.from({ length: 5 }, (_, k) => there.signal({ type: "run_cancelled", runId: `run-${k}` })),
      ]);
    } finally {
      pg.Client.prototype.query = query;
    }
    await heardAll;
    expect(overlapping).toBe(0);
    await here.close();
    await there.close();
  });
});
