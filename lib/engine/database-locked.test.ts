import { type ChildProcess, spawn } from "node:child_process";
import { createClientFromDriver, createInProcessDriver } from "toolnexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFileOf } from "@/lib/db/sql/database-url";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { createOutageClient, streamWords, waitForRunsToEnd } from "./testing/outage-agent";
import { memoryLog } from "./testing/scripted-agent";

// Another process holds SQLite's write lock for longer than the busy timeout (5 s) while a run
// streams: its writes fail with SQLITE_BUSY. The run pauses and finishes once the lock is
// released; it does not fail (ADR 0060).

/** Takes the write lock (BEGIN IMMEDIATE), says so, holds it for `holdMs`, then lets go. */
const HOLDER = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
setTimeout(() => { db.exec("COMMIT"); db.close(); process.stdout.write("released\\n"); }, Number(process.argv[2]));
`;

function holdWriteLock(file: string, holdMs: number): { child: ChildProcess; locked: Promise<void> } {
  const child = spawn(process.execPath, ["-e", HOLDER, file, String(holdMs)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return { child, locked };
}

describe("SQLite held locked by another process (sqlite)", () => {
  let database: TestDatabase;
  let holder: ChildProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    if (holder && holder.exitCode === null) holder.kill("SIGKILL");
    await database?.drop();
  });

  it("pauses a streaming run past the busy timeout and finishes it once the lock is gone", {
    timeout: 60_000,
  }, async () => {
    const { owner, threadId } = await seedPeople(database.db);
    const log = memoryLog();
    const engine = makeTestEngine({
      db: database.db,
      log,
      createClient: createOutageClient({ wordMs: 100 }),
      recoveryIntervalMs: 200,
    });
    await engine.start();
    try {
      const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "stream please" });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const held = holdWriteLock(sqliteFileOf(database.url), 7_000);
      holder = held.child;
      await held.locked;

      const statuses = await waitForRunsToEnd(database.db, [runId], 40_000);
      expect(statuses.get(runId)).toBe("done");
      const state = await readRunState(database.db, runId);
      expect(state.messages.at(1)).toMatchObject({ role: "assistant", content: streamWords.join("") });
      expect(state.messages.at(-1)).toEqual({ role: "assistant", content: "finished: counted" });
      expect(log.entries.filter((entry) => entry.tool === "count")).toHaveLength(1);
    } finally {
      await engine.stop();
    }
  });

  it("still fails a run whose model host refuses the connection: only storage pauses a run", async () => {
    const { owner, threadId } = await seedPeople(database.db);
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:443"), { code: "ECONNREFUSED" });
    const engine = makeTestEngine({
      db: database.db,
      log: memoryLog(),
      createClient: () =>
        createClientFromDriver(
          createInProcessDriver({
            model: "unreachable-model",
            generate: () => {
              throw refused;
            },
          }),
        ),
    });
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "hello" });
    await engine.idle();
    const { run } = await readRunState(database.db, runId);
    expect(run.status).toBe("failed");
    expect(run.error).toBe("The run stopped because of an internal error.");
  });
});
