import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb } from "@/lib/db/client";
import type { DbClient } from "@/lib/db/db-types";

const migrationsDir = path.resolve(import.meta.dirname, "../../../prisma/migrations");

/** A real SQLite file in a temp folder with every committed migration applied. */
export function createMigratedSqliteDb(): { db: DbClient; dispose(): Promise<void> } {
  const dir = mkdtempSync(path.join(tmpdir(), "tn-oauth-db-"));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  const folders = readdirSync(migrationsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const folder of folders.map((entry) => entry.name).sort()) {
    raw.exec(readFileSync(path.join(migrationsDir, folder, "migration.sql"), "utf8"));
  }
  raw.close();
  const db = createDb({ url: `file:${file}` });
  return {
    db,
    async dispose() {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
