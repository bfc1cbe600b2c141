import "server-only";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export type TempDatabase = {
  provider: "sqlite" | "postgres";
  url: string;
  /** Removes the database (PostgreSQL: DROP DATABASE ... WITH (FORCE); SQLite: its directory). */
  drop(): Promise<void>;
};

/** The PostgreSQL server tests create their databases on. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database for one test file. SQLite: a file in a new temp directory (not created
 * yet, as on a fresh install). PostgreSQL: a randomly named database on TEST_POSTGRES_URL's
 * server, created empty unless `create: false`.
 */
export async function createTempDatabase({
  provider,
  create = true,
}: {
  provider: "sqlite" | "postgres";
  create?: boolean;
}): Promise<TempDatabase> {
  const suffix = randomBytes(6).toString("hex");
  if (provider === "sqlite") {
    const dir = mkdtempSync(path.join(tmpdir(), "toolnexus-db-"));
    return {
      provider,
      url: `file:${path.join(dir, "test.db")}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `toolnexus_test_${suffix}`;
  if (create) await withAdmin((client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    provider,
    url: url.toString(),
    drop: () =>
      withAdmin(
        async (client) =>
          void (await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)),
      ),
  };
}
