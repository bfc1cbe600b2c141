import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient } from "./db-types";
import {
  appendEvents,
  appendRunEvents,
  getFirstEventSeqByRun,
  listEventsAfterSeq,
  listSupersededMarkersByRun,
} from "./events";
import { createDb } from "./sql/client";
import { migrateDatabase } from "./sql/migrate-database";
import { createTempDatabase } from "./sql/temp-database";
import { engineTransaction } from "./sql/transaction-options";
import { createHeldRun, seedPeople } from "./testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

const counterMigration = "20261130011140_thread_last_event_seq";

function append(db: DbClient, threadId: string, deltas: string[]) {
  return db.$transaction(
    (tx) =>
      appendEvents({ tx, threadId, runId: null, bodies: deltas.map((delta) => ({ type: "text", delta })) }),
    engineTransaction,
  );
}

async function storedSeqs(db: DbClient, threadId: string): Promise<number[]> {
  return (await listEventsAfterSeq({ db, threadId, afterSeq: 0 })).map((event) => event.seq);
}

async function lastEventSeq(db: DbClient, threadId: string): Promise<number> {
  const thread = await db.thread.findUniqueOrThrow({
    where: { id: threadId },
    select: { lastEventSeq: true },
  });
  return thread.lastEventSeq;
}

// A child appender is a Node process loading TypeScript and both Prisma clients: about two
// seconds of CPU before its first statement, several times that on a loaded 2-core machine
// (a CI runner), where a test that starts them needs more than the suite's 30 s.
const CHILD_PROCESS_TEST_MS = 90_000;

const root = path.resolve(import.meta.dirname, "../..");

function startAppender(url: string, threadId: string, batches: string[][]) {
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "lib/db/testing/append-in-child.ts",
      url,
      threadId,
      JSON.stringify(batches),
    ],
    { cwd: root },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, lines };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error("appender exited early");
  return value;
}

function parseSeqs(line: string): number[][] {
  if (!line.startsWith("seqs ")) throw new Error(`unexpected line from the appender: ${line}`);
  return JSON.parse(line.slice("seqs ".length)) as number[][];
}

describe.each<TestProvider>(["sqlite", "postgres"])("the event log on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it(
    "gives concurrent appends to one thread from three processes consecutive seqs, each batch in one block",
    async () => {
      const { threadId } = await seedPeople(database.db);
      // Ten appends of one to three events each per process.
      const batchesOf = (appender: number) =>
        Array.from({ length: 10 }, (_, i) =>
          Array.from({ length: (i % 3) + 1 }, (_, j) => `${appender}.${i}.${j}`),
        );
      // Two child processes, and this one as the third: starting a process is most of this
      // test's cost, and this process appends through a client of its own just as they do.
      const children = [0, 1].map((child) => startAppender(database.url, threadId, batchesOf(child)));
      await Promise.all(children.map((child) => nextLine(child.lines)));
      for (const child of children) child.child.stdin.write("go\n");
      const [fromChildren, own] = await Promise.all([
        Promise.all(children.map(async (child) => parseSeqs(await nextLine(child.lines)))),
        Promise.all(
          batchesOf(2).map(async (deltas) =>
            (await append(database.db, threadId, deltas)).map((event) => event.seq),
          ),
        ),
      ]);
      const results = [...fromChildren, own];

      for (const batches of results) {
        for (const seqs of batches) expect(seqs).toEqual(seqs.map((_, j) => seqs[0]! + j));
      }
      const total = [0, 1, 2].flatMap(batchesOf).flat().length;
      const all = results.flat(2).sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      const stored = await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0 });
      expect(stored.map((event) => event.seq)).toEqual(all);
      // Each batch's events are the ones it appended, in its order.
      const byDelta = new Map(stored.map((event) => [event.type === "text" ? event.delta : "", event.seq]));
      for (const [appender, batches] of results.entries()) {
        for (const [i, seqs] of batches.entries()) {
          expect(seqs).toEqual(batchesOf(appender)[i]!.map((delta) => byDelta.get(delta)));
        }
      }
      expect(await lastEventSeq(database.db, threadId)).toBe(total);
    },
    CHILD_PROCESS_TEST_MS,
  );

  it(
    "holds an appender in another process until the earlier one commits, so seqs follow commit order",
    async () => {
      const { threadId } = await seedPeople(database.db);
      const appender = startAppender(database.url, threadId, [["second"]]);
      await nextLine(appender.lines);
      let committed = false;
      let answered: Promise<{ line: string; afterCommit: boolean }> | undefined;
      const first = await database.db.$transaction(async (tx) => {
        const events = await appendEvents({
          tx,
          threadId,
          runId: null,
          bodies: [{ type: "text", delta: "first" }],
        });
        appender.child.stdin.write("go\n");
        answered = nextLine(appender.lines).then((line) => ({ line, afterCommit: committed }));
        // Long enough for the other process to reach the thread row; it must wait there however long.
        await new Promise((resolve) => setTimeout(resolve, 300));
        committed = true;
        return events;
      }, engineTransaction);
      const second = await answered!;

      expect(second.afterCommit).toBe(true);
      expect(first.map((event) => event.seq)).toEqual([1]);
      expect(parseSeqs(second.line)).toEqual([[2]]);
    },
    CHILD_PROCESS_TEST_MS,
  );

  it("gives the seqs of a rolled-back append back, leaving no hole", async () => {
    const { threadId } = await seedPeople(database.db);
    await append(database.db, threadId, ["a"]);
    const rolledBack = database.db.$transaction(async (tx) => {
      await appendEvents({ tx, threadId, runId: null, bodies: [{ type: "text", delta: "lost" }] });
      throw new Error("rolled back");
    }, engineTransaction);
    await expect(rolledBack).rejects.toThrow("rolled back");
    await append(database.db, threadId, ["b"]);

    expect(await storedSeqs(database.db, threadId)).toEqual([1, 2]);
    expect(await lastEventSeq(database.db, threadId)).toBe(2);
  });

  it("appends a run's events only while the run is held, and takes no seq otherwise", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "holder");
    const before = await lastEventSeq(database.db, threadId);
    const bodies = [{ type: "text" as const, delta: "hi" }];

    const stranger = await appendRunEvents({
      db: database.db,
      threadId,
      runId,
      bodies,
      onlyWhileHeldBy: "stranger",
    });
    expect(stranger).toEqual([]);
    expect(await lastEventSeq(database.db, threadId)).toBe(before);

    const held = await appendRunEvents({
      db: database.db,
      threadId,
      runId,
      bodies,
      onlyWhileHeldBy: "holder",
    });
    expect(held.map((event) => event.seq)).toEqual([before + 1]);
    expect(await storedSeqs(database.db, threadId)).toEqual(
      Array.from({ length: before + 1 }, (_, i) => i + 1),
    );
  });

  it("reads a run's first event seq and its superseded markers in seq order, the run's alone", async () => {
    const { threadId, runId } = await createHeldRun(database.db, "holder");
    const other = await createHeldRun(database.db, "holder");
    const marker = (afterSeq: number) => ({ type: "superseded" as const, afterSeq });
    const held = { db: database.db, onlyWhileHeldBy: "holder" };
    await appendRunEvents({ ...held, threadId, runId, bodies: [marker(1), { type: "text", delta: "x" }] });
    await appendRunEvents({ ...held, ...other, bodies: [marker(1)] });
    await appendRunEvents({ ...held, threadId, runId, bodies: [marker(3)] });

    const stored = await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0 });
    const ofRun = stored.filter((event) => event.runId === runId);
    expect(await getFirstEventSeqByRun({ db: database.db, runId })).toBe(ofRun[0]!.seq);
    const markers = await listSupersededMarkersByRun({ db: database.db, runId });
    expect(markers).toEqual(ofRun.filter((event) => event.type === "superseded"));
    expect(markers.map((event) => (event.type === "superseded" ? event.afterSeq : null))).toEqual([1, 3]);
    expect(await getFirstEventSeqByRun({ db: database.db, runId: "no-such-run" })).toBeNull();
  });

  it("refuses to append to a thread that does not exist", async () => {
    await expect(append(database.db, "no-such-thread", ["x"])).rejects.toThrow("does not exist");
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])("the event counter migration on %s", (provider) => {
  it("starts every thread's counter at its highest stored seq", async () => {
    const temp = await createTempDatabase({ provider });
    try {
      await migrateDatabase({ url: temp.url, before: counterMigration });
      const insert = [
        `INSERT INTO "User" ("id", "role", "createdAt", "updatedAt") VALUES ('u1', 'user', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
        `INSERT INTO "Thread" ("id", "userId", "title", "createdAt", "updatedAt") VALUES ('t-busy', 'u1', '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP), ('t-empty', 'u1', '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
        `INSERT INTO "Event" ("id", "threadId", "seq", "type", "payload", "createdAt") VALUES ('e1', 't-busy', 1, 'text', '{}', CURRENT_TIMESTAMP), ('e2', 't-busy', 2, 'text', '{}', CURRENT_TIMESTAMP), ('e7', 't-busy', 7, 'text', '{}', CURRENT_TIMESTAMP)`,
      ];
      if (provider === "sqlite") {
        const { default: Database } = await import("better-sqlite3");
        const raw = new Database(temp.url.slice("file:".length));
        for (const sql of insert) raw.exec(sql);
        raw.close();
      } else {
        const client = new pg.Client({ connectionString: temp.url });
        await client.connect();
        for (const sql of insert) await client.query(sql);
        await client.end();
      }
      const { applied } = await migrateDatabase({ url: temp.url });
      expect(applied[0]).toBe(counterMigration);

      const db = createDb({ url: temp.url });
      try {
        expect(await lastEventSeq(db, "t-busy")).toBe(7);
        expect(await lastEventSeq(db, "t-empty")).toBe(0);
        const [next] = await append(db, "t-busy", ["after"]);
        expect(next?.seq).toBe(8);
      } finally {
        await db.$disconnect();
      }
    } finally {
      await temp.drop();
    }
  });
});
