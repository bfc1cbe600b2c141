import { execFile } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFileOf } from "@/lib/db/sql/database-url";
import { createTempDatabase, TEST_POSTGRES_URL, type TempDatabase } from "@/lib/db/sql/temp-database";

const root = path.resolve(import.meta.dirname, "../..");
const prisma = path.join(root, "node_modules/.bin/prisma");
const bridge = path.join(root, "prisma/engine/schema-engine-bridge.mjs");

type CliResult = { code: number; stdout: string; stderr: string };

// The CLI is run exactly as a developer would: the engine location comes from prisma.config.ts.
function runPrisma(args: string[], databaseUrl: string): Promise<CliResult> {
  const { PRISMA_SCHEMA_ENGINE_BINARY: _inherited, ...inherited } = process.env;
  const env = { ...inherited, DATABASE_URL: databaseUrl };
  return new Promise((resolve) => {
    execFile(prisma, args, { cwd: root, env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const POSTGRES_CATALOG = {
  table: "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
  view: "SELECT viewname AS name FROM pg_views WHERE schemaname = 'public'",
} as const;

/** The names of the tables or views in the database's public schema, sorted. */
async function objectNames(database: TempDatabase, type: "table" | "view"): Promise<string[]> {
  if (database.provider === "sqlite") {
    const db = new Database(sqliteFileOf(database.url), { readonly: true });
    try {
      const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = ?").all(type) as {
        name: string;
      }[];
      return rows.map((row) => row.name).sort();
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(POSTGRES_CATALOG[type]);
    return rows.map((row) => row.name).sort();
  } finally {
    await client.end();
  }
}

async function execute(database: TempDatabase, sql: string): Promise<void> {
  if (database.provider === "sqlite") {
    const db = new Database(sqliteFileOf(database.url));
    db.exec(sql);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function leftoverShadowDatabases(database: TempDatabase): Promise<string[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    const name = new URL(database.url).pathname.slice(1);
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1",
      [`prisma_shadow_${name}%`],
    );
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

const layouts = {
  sqlite: { schema: "prisma/schema.prisma", migrations: "prisma/migrations" },
  postgres: { schema: "prisma/postgres/schema.prisma", migrations: "prisma/postgres/migrations" },
};

// Each case starts the real CLI (a few seconds on a busy machine), hence the generous timeout.
describe.each(["sqlite", "postgres"] as const)(
  "the Prisma CLI through the bridge on %s",
  { timeout: 120_000 },
  (provider) => {
    const { schema, migrations } = layouts[provider];
    let database: TempDatabase;
    let pushed: TempDatabase;

    beforeAll(async () => {
      database = await createTempDatabase({ provider, create: false });
      pushed = await createTempDatabase({ provider, create: true });
    });

    afterAll(async () => {
      await database?.drop();
      await pushed?.drop();
    });

    it("migrate deploy creates the database and applies the committed migrations", async () => {
      const result = await runPrisma(["migrate", "deploy"], database.url);
      expect(result.stderr + result.stdout).toContain("All migrations have been successfully applied");
      expect(result.code).toBe(0);
      expect(await objectNames(database, "table")).toEqual(
        expect.arrayContaining(["_prisma_migrations", "Request", "User"]),
      );
    });

    it("migrate status reports unapplied migrations on a database without history, read-only", async () => {
      await execute(pushed, "CREATE TABLE probe (id INTEGER)");
      const result = await runPrisma(["migrate", "status"], pushed.url);
      expect(result.stdout).toContain("have not yet been applied");
      expect(result.code).toBe(1);
      expect(await objectNames(pushed, "table")).toEqual(["probe"]);
      await execute(pushed, "DROP TABLE probe");
    });

    it("migrate status reports the database up to date", async () => {
      const result = await runPrisma(["migrate", "status"], database.url);
      expect(result.stdout).toContain("Database schema is up to date");
      expect(result.code).toBe(0);
    });

    it("migrate diff finds no difference between the committed migrations and the schema", async () => {
      const same = await runPrisma(
        ["migrate", "diff", "--from-migrations", migrations, "--to-schema", schema, "--exit-code"],
        database.url,
      );
      expect(same.code).toBe(0);
      // The check can fail: the same comparison from an empty database is a non-empty script.
      const fromEmpty = await runPrisma(
        ["migrate", "diff", "--from-empty", "--to-schema", schema, "--script", "--exit-code"],
        database.url,
      );
      expect(fromEmpty.code).toBe(2);
      expect(fromEmpty.stdout).toContain('CREATE TABLE "Request"');
      if (provider === "postgres") expect(await leftoverShadowDatabases(database)).toEqual([]);
    });

    it("migrate diff finds the live database identical to the schema", async () => {
      const result = await runPrisma(
        ["migrate", "diff", "--from-config-datasource", "--to-schema", schema, "--exit-code"],
        database.url,
      );
      expect(result.code).toBe(0);
    });

    it("migrate reset drops everything, including foreign tables, and re-applies the migrations", async () => {
      // A view and a foreign key into the model are what defeat the engine's own SQLite reset.
      await execute(
        database,
        'CREATE TABLE "Leftover" (id INTEGER, "userId" TEXT REFERENCES "User"(id)); CREATE VIEW "LeftoverView" AS SELECT id FROM "User";',
      );
      const result = await runPrisma(["migrate", "reset", "--force"], database.url);
      expect(result.code).toBe(0);
      const tables = await objectNames(database, "table");
      expect(tables).not.toContain("Leftover");
      expect(await objectNames(database, "view")).toEqual([]);
      expect(tables).toEqual(expect.arrayContaining(["_prisma_migrations", "Request", "User"]));
    });

    it("db push creates the schema on a new database", async () => {
      const result = await runPrisma(["db", "push"], pushed.url);
      expect(result.code).toBe(0);
      const tables = await objectNames(pushed, "table");
      expect(tables).toEqual(expect.arrayContaining(["Answer", "Event", "Request", "Run", "Thread", "User"]));
      expect(tables).not.toContain("_prisma_migrations");
    });
  },
);

describe("the bridge executable", () => {
  it("reports the WebAssembly engine's version like the native binary", async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(bridge, ["--version"], (error, out) => (error ? reject(error) : resolve(out)));
    });
    expect(stdout).toMatch(/^schema-engine-cli [0-9a-f]{40}\n$/);
  });

  it("answers can-connect-to-database with P1003 for a missing SQLite file", async () => {
    const missing = `file:${path.join(root, "data", "does-not-exist", "x.db")}`;
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        bridge,
        ["--datasource", JSON.stringify({ url: missing }), "cli", "can-connect-to-database"],
        (error, _out, err) => resolve({ code: error ? Number(error.code) : 0, stderr: err }),
      );
    });
    expect(code).toBe(1);
    const lines = stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ level: "ERROR", fields: { error_code: "P1003" } });
  });
});
