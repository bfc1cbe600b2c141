import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDbProvider } from "./db-provider";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";

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
