import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { createDb } from "./client";
import { asUnavailableError, isDatabaseUnavailable } from "./database-unavailable";
import { sqliteFileOf } from "./database-url";

// Real errors from real servers, as the app meets them: through Prisma's client and through a
// plain pg connection (the hot path runs on the adapter's pool).

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

describe("isDatabaseUnavailable on PostgreSQL", () => {
  let database: TestDatabase;
  const connect = async () => {
    const client = new pg.Client({ connectionString: database.url });
    client.on("error", () => {});
    await client.connect();
    return client;
  };
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("says yes to a server that is not there (Prisma P1001)", async () => {
    const url = new URL(database.url);
    url.port = "1"; // nothing listens there
    const db = createDb({ url: url.toString() });
    try {
      const error = await failure(db.user.count());
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(asUnavailableError(error)).toMatchObject({ code: "unavailable:database", status: 503 });
    } finally {
      await db.$disconnect();
    }
  });

  it("says yes to a connection the server ends (57P01), through Prisma and through pg", async () => {
    const admin = await connect();
    try {
      const raw = await connect();
      const rawSleep = failure(raw.query("SELECT pg_sleep(10)"));
      const prismaSleep = failure(database.db.$queryRawUnsafe("SELECT pg_sleep(10) AS outage_probe"));
      const sleepers =
        "FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'SELECT pg_sleep(10)%' AND pid <> pg_backend_pid()";
      for (let tries = 0; tries < 100; tries += 1) {
        const { rows } = await admin.query(`SELECT count(*)::int AS n ${sleepers}`);
        if (rows[0].n === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin.query(`SELECT pg_terminate_backend(pid) ${sleepers}`);
      const rawError = await rawSleep;
      expect((rawError as { code?: string }).code).toBe("57P01");
      expect(isDatabaseUnavailable(rawError)).toBe(true);
      expect(isDatabaseUnavailable(await prismaSleep)).toBe(true);
      await raw.end().catch(() => {});
    } finally {
      await admin.end();
    }
  });

  it("says yes to a serialization failure (40001)", async () => {
    const [a, b] = [await connect(), await connect()];
    try {
      await a.query("CREATE TABLE IF NOT EXISTS skew (x int)");
      for (const client of [a, b]) await client.query("BEGIN ISOLATION LEVEL SERIALIZABLE");
      for (const client of [a, b]) await client.query("SELECT count(*) FROM skew");
      for (const client of [a, b]) await client.query("INSERT INTO skew VALUES (1)");
      await a.query("COMMIT");
      const error = await failure(b.query("COMMIT"));
      expect((error as { code?: string }).code).toBe("40001");
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it("says no to a statement's own faults", async () => {
    const syntax = await failure(database.db.$queryRawUnsafe("SELEC 1"));
    const email = `twice-${Date.now()}@example.test`;
    await database.db.user.create({ data: { email } });
    const unique = await failure(database.db.user.create({ data: { email } }));
    for (const error of [syntax, unique, new Error("boom"), new AppError("conflict:answer"), "text", null]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(asUnavailableError(error)).toBe(error);
    }
  });
});

describe("isDatabaseUnavailable on SQLite", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("says yes to a database another connection holds locked past the busy timeout", {
    timeout: 20_000,
  }, async () => {
    const file = sqliteFileOf(database.url);
    await database.db.user.count();
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const impatient = new Database(file, { timeout: 0 });
      let direct: unknown;
      try {
        impatient.exec(
          "INSERT INTO User (id, email, role, sessionVersion) VALUES ('x', 'x@example.test', 'user', 0)",
        );
      } catch (error) {
        direct = error;
      }
      impatient.close();
      expect((direct as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(isDatabaseUnavailable(direct)).toBe(true);
      // Prisma's adapter waits out the busy timeout (5 s), then gives up.
      const viaPrisma = await failure(database.db.user.create({ data: { email: "y@example.test" } }));
      expect(isDatabaseUnavailable(viaPrisma)).toBe(true);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });
});
