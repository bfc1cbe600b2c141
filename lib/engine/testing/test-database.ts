import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { createDb } from "@/lib/db/client";
import type { DbClient } from "@/lib/db/db-types";

export type TestProvider = "sqlite" | "postgres";

const root = path.resolve(import.meta.dirname, "../../..");
const migrationsOf = (provider: TestProvider) =>
  path.join(root, provider === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations");

/** The PostgreSQL server the machine runs; overridable for other setups. */
export const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

function migrationScripts(provider: TestProvider): string[] {
  const dir = migrationsOf(provider);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
}

export interface TestDatabase {
  provider: TestProvider;
  url: string;
  db: DbClient;
  /** Another client on the same database, as a second process would have. */
  connect(): DbClient;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own: a temp SQLite file, or a new PostgreSQL database. */
export async function createTestDatabase(provider: TestProvider): Promise<TestDatabase> {
  const clients: DbClient[] = [];
  const connect = (url: string) => () => {
    const client = createDb({ url, poolMax: 20 });
    clients.push(client);
    return client;
  };
  const disconnectAll = () => Promise.all(clients.map((client) => client.$disconnect()));

  if (provider === "sqlite") {
    const dir = mkdtempSync(path.join(tmpdir(), "toolnexus-engine-"));
    const file = path.join(dir, "test.db");
    const raw = new Database(file);
    for (const script of migrationScripts("sqlite")) raw.exec(script);
    raw.close();
    const url = `file:${file}`;
    const open = connect(url);
    return {
      provider,
      url,
      db: open(),
      connect: open,
      async drop() {
        await disconnectAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const name = `tn_engine_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(postgresAdminUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const setup = new pg.Client({ connectionString: url });
  try {
    await setup.connect();
    for (const script of migrationScripts("postgres")) await setup.query(script);
  } catch (error) {
    await setup.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    throw error;
  }
  await setup.end();
  const open = connect(url);
  return {
    provider,
    url,
    db: open(),
    connect: open,
    async drop() {
      await disconnectAll();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
