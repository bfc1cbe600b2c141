import { randomBytes } from "node:crypto";
import pg from "pg";

/** A PostgreSQL database of the test's own on the local server, dropped afterwards. */
export async function createPostgresDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/test";
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
