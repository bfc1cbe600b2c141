import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { DbClient, DbTx } from "../db-types";
import { gate } from "../testing/gate";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { createDb } from "./client";
import { hotSqlOf, sql, sqlTable, sqlTime } from "./hot-sql";
import { hotTransaction } from "./hot-transaction";
import { newRowId } from "./row-id";

// ADR 0049: on PostgreSQL the engine's transactions are BEGIN … COMMIT on a connection of the
// adapter's pool and its statements go to the pool directly, bypassing Prisma's client.

let serial = 0;
const email = () => `pgh-${process.pid}-${serial++}@example.com`;

const insertUser = (tx: DbTx | DbClient, address: string) =>
  hotSqlOf(tx).execute(sql`
    INSERT INTO ${sqlTable("User")} ("id", "email", "updatedAt")
    VALUES (${newRowId()}, ${address}, ${sqlTime(new Date())})`);

const countUsers = (db: DbClient, address: string) => db.user.count({ where: { email: address } });

describe("hot transactions on postgres", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(() => database?.drop());

  it("refuses a typed Prisma call through its tx with a clear error, and rolls back", async () => {
    const address = email();
    await expect(
      hotTransaction(database.db, async (tx) => {
        await insertUser(tx, address);
        await tx.user.findMany();
      }),
    ).rejects.toThrow(
      "db.user was used inside a hot transaction on PostgreSQL; run the statement through hotSqlOf(tx)",
    );
    expect(await countUsers(database.db, address)).toBe(0);
  });

  it("prepares a statement's text once on a connection and then only runs it (ADR 0050)", async () => {
    await hotTransaction(database.db, async (tx) => {
      const hot = hotSqlOf(tx);
      const lookup = (address: string) =>
        hot.query(sql`SELECT "id" FROM ${sqlTable("User")} WHERE "email" = ${address}`);
      await lookup(email());
      await lookup(email());
      const prepared = await hot.query<{ statement: string }>(
        sql`SELECT "statement" FROM pg_prepared_statements WHERE "name" LIKE 'tn\\_%'`,
      );
      expect(prepared.filter((row) => row.statement.includes('WHERE "email" = $1'))).toHaveLength(1);
    });
  });

  it("keeps its writes from every other connection until it commits", async () => {
    const address = email();
    const written = gate();
    const checked = gate();
    const transaction = hotTransaction(database.db, async (tx) => {
      await insertUser(tx, address);
      written.open();
      await checked.opened;
      // Inside, the write is there.
      const [row] = await hotSqlOf(tx).query<{ n: bigint }>(
        sql`SELECT COUNT(*) AS "n" FROM ${sqlTable("User")} WHERE "email" = ${address}`,
      );
      return row!.n;
    });
    await written.opened;
    expect(await countUsers(database.db, address)).toBe(0);
    const [outside] = await hotSqlOf(database.db).query<{ n: bigint }>(
      sql`SELECT COUNT(*) AS "n" FROM ${sqlTable("User")} WHERE "email" = ${address}`,
    );
    expect(outside!.n).toBe(0n);
    checked.open();
    expect(await transaction).toBe(1n);
    expect(await countUsers(database.db, address)).toBe(1);
  });

  it("rolls back a statement's failure and leaves the connection fit for the next transaction", async () => {
    const address = email();
    await hotTransaction(database.db, (tx) => insertUser(tx, address));
    const other = email();
    await expect(
      hotTransaction(database.db, async (tx) => {
        await insertUser(tx, other);
        await insertUser(tx, address); // the unique email again
      }),
    ).rejects.toThrow(/unique|duplicate/i);
    expect(await countUsers(database.db, other)).toBe(0);
    await hotTransaction(database.db, (tx) => insertUser(tx, other));
    expect(await countUsers(database.db, other)).toBe(1);
  });

  it("runs a hot transaction begun inside another as part of it", async () => {
    const outer = email();
    const inner = email();
    await expect(
      hotTransaction(database.db, async (tx) => {
        await insertUser(tx, outer);
        await hotTransaction(tx as unknown as DbClient, (nested) => insertUser(nested, inner));
        throw new Error("undo both");
      }),
    ).rejects.toThrow("undo both");
    expect(await countUsers(database.db, outer)).toBe(0);
    expect(await countUsers(database.db, inner)).toBe(0);
  });

  it("hands every connection back, whether its body returned or threw", async () => {
    const small = createDb({ url: database.url, poolMax: 2 });
    try {
      for (let round = 0; round < 12; round++) {
        const address = email();
        const body = async (tx: DbTx) => {
          await insertUser(tx, address);
          if (round % 2) throw new Error(`round ${round} fails`);
        };
        if (round % 2) await expect(hotTransaction(small, body)).rejects.toThrow(`round ${round} fails`);
        else await hotTransaction(small, body);
        expect(await countUsers(small, address)).toBe(round % 2 ? 0 : 1);
      }
      // More at once than the pool holds: they wait their turn, none is lost.
      const addresses = Array.from({ length: 8 }, email);
      await Promise.all(addresses.map((address) => hotTransaction(small, (tx) => insertUser(tx, address))));
      expect(await small.user.count({ where: { email: { in: addresses } } })).toBe(8);
    } finally {
      await small.$disconnect();
    }
  });

  it("reads values back as Prisma's raw statements do", async () => {
    const address = email();
    const at = new Date("2026-07-01T12:30:00.123Z");
    // The stored wall time is UTC whatever the server's zone: read here in one an hour off UTC.
    const zone = process.env.TZ;
    process.env.TZ = "Europe/London";
    onTestFinished(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    await hotSqlOf(database.db).execute(sql`
      INSERT INTO ${sqlTable("User")} ("id", "email", "updatedAt", "createdAt")
      VALUES (${newRowId()}, ${address}, ${sqlTime(at)}, ${sqlTime(at)})`);
    const statement = sql`
      SELECT "createdAt", "sessionVersion", "emailVerified", COUNT(*) OVER () AS "n"
      FROM ${sqlTable("User")} WHERE "email" = ${address}`;
    const [hot] = await hotSqlOf(database.db).query<Record<string, unknown>>(statement);
    const inTransaction = await hotTransaction(database.db, (tx) =>
      hotSqlOf(tx).query<Record<string, unknown>>(statement),
    );
    // Inside Prisma's own transaction the statement goes through Prisma's raw path.
    const viaPrisma = await database.db.$transaction((tx) =>
      hotSqlOf(tx as unknown as DbTx).query<Record<string, unknown>>(statement),
    );
    const typed = await database.db.user.findUnique({ where: { email: address } });
    expect(hot).toEqual({ createdAt: at, sessionVersion: 0, emailVerified: null, n: 1n });
    expect(inTransaction).toEqual([hot]);
    expect(viaPrisma).toEqual([hot]);
    expect(typed?.createdAt).toEqual(at);
  });
});
