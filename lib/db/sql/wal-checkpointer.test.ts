import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { DbClient } from "../db-types";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { sqliteFileOf } from "./database-url";
import {
  BACKSTOP_AUTOCHECKPOINT_PAGES,
  type CheckpointReport,
  onSqliteCheckpoint,
  watchSqliteCheckpoints,
} from "./wal-checkpointer";

// ADR 0046: the embedded database's checkpoints run on a worker thread's own connection, so a
// commit on the app's connection only ever appends to the log.
describe("checkpoints of the embedded database", () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  const autocheckpoint = async (db: DbClient) => {
    const [row] =
      await db.$queryRawUnsafe<{ wal_autocheckpoint: bigint | number }[]>("PRAGMA wal_autocheckpoint");
    return Number(row?.wal_autocheckpoint);
  };

  // About 1,500 pages of log, in 30 commits: past the 1,000 at which SQLite would checkpoint on a commit.
  const writeLog = async (db: DbClient) => {
    await db.$executeRawUnsafe('CREATE TABLE "Scratch" ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL)');
    for (let batch = 0; batch < 30; batch += 1) {
      await db.$executeRawUnsafe(
        `INSERT INTO "Scratch" ("body") SELECT printf('%.200c', 'x') FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i FROM n)`,
      );
    }
  };

  const nextCheckpoint = (file: string) =>
    new Promise<CheckpointReport>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no checkpoint within 5 s")), 5_000);
      const stop = onSqliteCheckpoint((report) => {
        if (report.file !== file) return;
        clearTimeout(timer);
        stop();
        resolve(report);
      });
    });

  it("leaves the committing connection only a distant backstop and checkpoints on the worker", async () => {
    database = await createTestDatabase("sqlite");
    const file = sqliteFileOf(database.url);
    expect(await autocheckpoint(database.db)).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    const checkpointed = nextCheckpoint(file);
    await writeLog(database.db);
    const report = await checkpointed;
    expect(report.checkpointed).toBeGreaterThan(0);
    expect(report.checkpointed).toBeLessThanOrEqual(report.log);
    const [row] = await database.db.$queryRawUnsafe<{ n: bigint | number }[]>(
      'SELECT count(*) AS n FROM "Scratch"',
    );
    expect(Number(row?.n)).toBe(30_000);
  });

  it("keeps checkpointing for one client when another on the same file disconnects", async () => {
    database = await createTestDatabase("sqlite");
    const file = sqliteFileOf(database.url);
    const other = database.connect();
    expect(await autocheckpoint(other)).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    await other.$disconnect();
    const checkpointed = nextCheckpoint(file);
    await writeLog(database.db);
    expect((await checkpointed).checkpointed).toBeGreaterThan(0);
  });

  it("lets go of the file when the last client disconnects, so closing removes the log", async () => {
    database = await createTestDatabase("sqlite");
    const file = sqliteFileOf(database.url);
    await writeLog(database.db);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await database.db.$disconnect();
    // Only the last connection to close folds the log in and deletes it: the worker's was closed first.
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it("gives a connection its own checkpoints back when the worker cannot open its file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolnexus-wal-"));
    const connection = new Database(path.join(dir, "app.db"));
    try {
      const warned = new Promise<Error>((resolve) => process.once("warning", resolve));
      const forget = watchSqliteCheckpoints({ file: path.join(dir, "missing", "app.db"), connection });
      expect(connection.pragma("wal_autocheckpoint", { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
      expect((await warned).message).toMatch(/back on the committing connection/);
      expect(connection.pragma("wal_autocheckpoint", { simple: true })).toBe(1_000);
      await forget();
    } finally {
      connection.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
