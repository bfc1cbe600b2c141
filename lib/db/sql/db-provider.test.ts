import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { createDb } from "./client";
import { getDbProvider, getRawTableName } from "./db-provider";

const databases: TestDatabase[] = [];
beforeAll(async () => {
  databases.push(await createTestDatabase("sqlite"), await createTestDatabase("postgres"));
});
afterAll(() => Promise.all(databases.map((database) => database.drop())));

describe("getDbProvider", () => {
  it("tells a SQLite client from a PostgreSQL one", () => {
    expect(databases.map((database) => getDbProvider({ db: database.db }))).toEqual(["sqlite", "postgres"]);
    expect(databases.map((database) => getDbProvider({ db: database.connect() }))).toEqual([
      "sqlite",
      "postgres",
    ]);
  });

  it("refuses anything else", () => {
    expect(() => getDbProvider({ db: {} as never })).toThrow(/createDb/);
  });

  it("knows the clients made through another copy of the module, as the server's bundles are", async () => {
    vi.resetModules();
    const copy = await import("./db-provider");
    expect(copy.getDbProvider).not.toBe(getDbProvider);
    expect(databases.map((database) => copy.getDbProvider({ db: database.db }))).toEqual([
      "sqlite",
      "postgres",
    ]);
  });
});

describe("getRawTableName", () => {
  it("names a table as Prisma does: bare on SQLite, in the URL's schema or public on PostgreSQL", async () => {
    const [sqlite, postgres] = databases.map((database) => database.db);
    expect(getRawTableName({ db: sqlite!, table: "Run" })).toBe('"Run"');
    expect(getRawTableName({ db: postgres!, table: "Run" })).toBe('"public"."Run"');
    // Creating a client opens no connection, so a schema that does not exist is fine here.
    const inSchema = createDb({ url: "postgresql://127.0.0.1:5432/test?schema=tenant_a" });
    try {
      expect(getRawTableName({ db: inSchema, table: "Request" })).toBe('"tenant_a"."Request"');
    } finally {
      await inSchema.$disconnect();
    }
  });
});
