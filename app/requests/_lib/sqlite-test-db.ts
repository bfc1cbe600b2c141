import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb, type Db } from "@/lib/db/client";

const MIGRATIONS = path.resolve(import.meta.dirname, "../../../prisma/migrations");

/**
 * A fresh SQLite file with the committed migrations applied, for integration tests of the
 * pages' server code. Each call gets its own directory, so test files never share state.
 */
export function createSqliteTestDb(): { db: Db; url: string; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(path.join(tmpdir(), "toolnexus-web-"));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  for (const entry of readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    raw.exec(readFileSync(path.join(MIGRATIONS, entry, "migration.sql"), "utf8"));
  }
  raw.close();
  const url = `file:${file}`;
  const db = createDb({ url });
  return {
    db,
    url,
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
