import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createDb } from "@/lib/db/client";
import type { DbClient } from "@/lib/db/db-types";
import { createTempDatabase } from "@/lib/db/temp-database";

export type TestProvider = "sqlite" | "postgres";

const root = path.resolve(import.meta.dirname, "../../..");
const migrationsOf = (provider: TestProvider) =>
  path.join(root, provider === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations");

function migrationScripts(provider: TestProvider, only: (name: string) => boolean): string[] {
  const dir = migrationsOf(provider);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && only(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
}

/**
 * Runs the checked-in migration scripts as they are, without Prisma's migration engine; `only`
 * picks some of them by folder name (a migration's own test stops before it, then runs it).
 */
export async function applyMigrations(
  provider: TestProvider,
  url: string,
  only: (name: string) => boolean = () => true,
): Promise<void> {
  if (provider === "sqlite") {
    const raw = new Database(url.slice("file:".length));
    try {
      for (const script of migrationScripts("sqlite", only)) raw.exec(script);
    } finally {
      raw.close();
    }
    return;
  }
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    for (const script of migrationScripts("postgres", only)) await setup.query(script);
  } finally {
    await setup.end();
  }
}

export interface TestDatabase {
  provider: TestProvider;
  url: string;
  db: DbClient;
  /** Another client on the same database, as a second process would have. */
  connect(): DbClient;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own (see createTempDatabase), with clients to it. */
export async function createTestDatabase(provider: TestProvider): Promise<TestDatabase> {
  const temp = await createTempDatabase({ provider });
  try {
    await applyMigrations(provider, temp.url);
  } catch (error) {
    await temp.drop();
    throw error;
  }
  const clients: DbClient[] = [];
  const connect = () => {
    const client = createDb({ url: temp.url, poolMax: 20 });
    clients.push(client);
    return client;
  };
  return {
    provider,
    url: temp.url,
    db: connect(),
    connect,
    async drop() {
      await Promise.all(clients.map((client) => client.$disconnect()));
      await temp.drop();
    },
  };
}
