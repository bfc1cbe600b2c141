import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { hotSqlOf, sql, sqlTable, sqlTime } from "./hot-sql";
import { hotTransaction } from "./hot-transaction";
import { newRowId } from "./row-id";
import { isUniqueViolation } from "./unique-violation";

let serial = 0;
const email = () => `uv-${process.pid}-${serial++}@example.com`;

/** What a write throws; fails the test if it does not throw. */
async function thrownBy(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error("the write did not fail");
}

describe.each(["sqlite", "postgres"] as const)("unique violations on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(() => database?.drop());

  const insertHot = (address: string, id = newRowId()) =>
    hotTransaction(database.db, (tx) =>
      hotSqlOf(tx).execute(sql`
        INSERT INTO ${sqlTable("User")} ("id", "email", "updatedAt")
        VALUES (${id}, ${address}, ${sqlTime(new Date())})`),
    );

  it("are recognised from Prisma's typed client", async () => {
    const address = email();
    await database.db.user.create({ data: { email: address } });
    const error = await thrownBy(() => database.db.user.create({ data: { email: address } }));
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("are recognised from a hot statement, on a unique index and on the primary key", async () => {
    const address = email();
    const id = newRowId();
    await insertHot(address, id);
    expect(isUniqueViolation(await thrownBy(() => insertHot(address)))).toBe(true);
    expect(isUniqueViolation(await thrownBy(() => insertHot(email(), id)))).toBe(true);
  });

  it("are told apart from other failures of the same statement", async () => {
    // A NOT NULL column left out: a constraint too, but not one a lost race explains.
    const notNull = await thrownBy(() =>
      hotTransaction(database.db, (tx) =>
        hotSqlOf(tx).execute(
          sql`INSERT INTO ${sqlTable("User")} ("id", "email") VALUES (${newRowId()}, ${email()})`,
        ),
      ),
    );
    expect(isUniqueViolation(notNull)).toBe(false);
    const missingTable = await thrownBy(() => hotSqlOf(database.db).query(sql`SELECT 1 FROM "NoSuchTable"`));
    expect(isUniqueViolation(missingTable)).toBe(false);
  });
});

describe("isUniqueViolation", () => {
  it("is false for what is not an error object", () => {
    for (const value of [null, undefined, "P2002", 23505, { code: 23505 }, new Error("P2002")])
      expect(isUniqueViolation(value)).toBe(false);
  });
});
