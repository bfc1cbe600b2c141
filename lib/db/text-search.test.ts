import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { textSearchWhere } from "./text-search";
import { upsertUserByEmail } from "./users";
import { listUsersPage } from "./users-page";

const NAMES = ["100% sure", "plain_name", "planet", "back\\slash", "Another"];

describe.each<TestProvider>(["sqlite", "postgres"])("text search on %s", (provider) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    for (const [index, name] of NAMES.entries()) {
      await upsertUserByEmail({
        db: database.db,
        email: `u${index}@search.test`,
        name,
        role: "user",
        passwordHash: null,
      });
    }
  });

  afterAll(async () => {
    await database.drop();
  });

  async function names(text: string): Promise<string[]> {
    const where = await textSearchWhere({ db: database.db, table: "User", text });
    const rows = await database.db.user.findMany({ where, select: { name: true }, orderBy: { name: "asc" } });
    return rows.map((row) => row.name!);
  }

  it.each([
    ["%", ["100% sure"]],
    ["_", ["plain_name"]],
    ["n_n", ["plain_name"]],
    ["0% S", ["100% sure"]],
    ["\\", ["back\\slash"]],
    ["\\%", []],
    ["PLAN", ["planet"]],
    ["an", ["Another", "planet"]],
  ])("matches %j literally, ignoring case", async (text, expected) => {
    expect(await names(text)).toEqual(expected);
  });

  it("matches nothing for a NUL character, instead of failing", async () => {
    expect(await names("a\u0000b")).toEqual([]);
  });

  it("is what the users page searches, name or email", async () => {
    const byName = await listUsersPage({ db: database.db, search: "_", page: 1, pageSize: 10 });
    expect(byName.rows.map((row) => row.name)).toEqual(["plain_name"]);
    expect(byName.total).toBe(1);
    const byEmail = await listUsersPage({ db: database.db, search: "U3@SEARCH", page: 1, pageSize: 10 });
    expect(byEmail.rows.map((row) => row.name)).toEqual(["back\\slash"]);
  });
});
