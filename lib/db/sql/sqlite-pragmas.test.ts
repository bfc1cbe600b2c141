import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";

// What every connection to the embedded database runs with (ADRs 0029 and 0043).
describe("the embedded database's connection settings", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(() => database?.drop());

  const pragma = async (name: string) => {
    const [row] = await database.db.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
    return Number.isNaN(Number(row?.[name])) ? row?.[name] : Number(row?.[name]);
  };

  it("writes ahead, syncs at checkpoints, checks foreign keys and keeps a 64 MiB page cache", async () => {
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("synchronous")).toBe(1);
    expect(await pragma("foreign_keys")).toBe(1);
    expect(await pragma("cache_size")).toBe(-65536);
  });
});
