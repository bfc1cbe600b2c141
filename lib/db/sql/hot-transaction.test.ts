import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient, DbTx } from "../db-types";
import { gate } from "../testing/gate";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { hotSqlOf, sql, sqlTable, sqlTime } from "./hot-sql";
import { hotTransaction } from "./hot-transaction";
import { newRowId } from "./row-id";

// ADR 0047: the engine's transactions, on SQLite BEGIN … COMMIT on the connection itself, queued
// with Prisma's own on one lock; on PostgreSQL (ADR 0049) on a connection of the adapter's pool,
// hot statements only (postgres-hot.test.ts).

let serial = 0;
const email = () => `ht-${process.pid}-${serial++}@example.com`;

/** Two hot writes, the second depending on the first: what any engine transaction holds. */
async function writeHot(tx: DbTx, address: string) {
  await hotSqlOf(tx).execute(sql`
    INSERT INTO ${sqlTable("User")} ("id", "email", "updatedAt")
    VALUES (${newRowId()}, ${address}, ${sqlTime(new Date())})`);
  await hotSqlOf(tx).execute(sql`UPDATE ${sqlTable("User")} SET "name" = 'hot' WHERE "email" = ${address}`);
}

/** One typed write and one hot write, so a rollback has both to undo (SQLite runs both). */
async function writeBoth(tx: DbTx, address: string) {
  await tx.user.create({ data: { email: address } });
  await hotSqlOf(tx).execute(sql`UPDATE ${sqlTable("User")} SET "name" = 'hot' WHERE "email" = ${address}`);
}

const stored = async (db: DbClient, address: string) =>
  (await db.user.findUnique({ where: { email: address }, select: { name: true } }))?.name ?? null;

describe.each(["sqlite", "postgres"] as const)("hot transactions on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(() => database?.drop());

  it("commits every write of a body that returns, and hands back its value", async () => {
    const address = email();
    const value = await hotTransaction(database.db, async (tx) => {
      await writeHot(tx, address);
      return 42;
    });
    expect(value).toBe(42);
    expect(await stored(database.db, address)).toBe("hot");
  });

  it("undoes every write when the body throws, and throws what it threw", async () => {
    const address = email();
    const failure = new Error("changed my mind");
    await expect(
      hotTransaction(database.db, async (tx) => {
        await writeHot(tx, address);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await database.db.user.count({ where: { email: address } })).toBe(0);
  });
});

describe("hot transactions beside Prisma's on sqlite", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(() => database?.drop());

  it("makes a Prisma transaction wait until an open hot transaction has committed", async () => {
    const [first, second] = [email(), email()];
    const held = gate();
    const order: string[] = [];
    const hot = hotTransaction(database.db, async (tx) => {
      await writeBoth(tx, first);
      await held.opened;
      order.push("hot done");
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const prisma = database.db.$transaction(async (tx) => {
      order.push("prisma began");
      // It sees the hot transaction's row only because that one committed first.
      expect(await stored(tx as unknown as DbClient, first)).toBe("hot");
      await tx.user.create({ data: { email: second } });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    held.open();
    await Promise.all([hot, prisma]);
    expect(order).toEqual(["hot done", "prisma began"]);
    expect(await database.db.user.count({ where: { email: { in: [first, second] } } })).toBe(2);
  });

  it("waits for an open Prisma transaction before it begins", async () => {
    const [first, second] = [email(), email()];
    const held = gate();
    const order: string[] = [];
    const prisma = database.db.$transaction(async (tx) => {
      await tx.user.create({ data: { email: first } });
      await held.opened;
      order.push("prisma done");
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const hot = hotTransaction(database.db, async (tx) => {
      order.push("hot began");
      await writeBoth(tx, second);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    held.open();
    await Promise.all([prisma, hot]);
    expect(order).toEqual(["prisma done", "hot began"]);
  });

  it("refuses a Prisma transaction inside its body instead of waiting for itself", async () => {
    const address = email();
    await expect(
      hotTransaction(database.db, async (tx) => {
        await writeBoth(tx, address);
        await database.db.$transaction(async (inner) => inner.user.count());
      }),
    ).rejects.toThrow(/cannot start inside a hot transaction/);
    expect(await database.db.user.count({ where: { email: address } })).toBe(0);
  });

  it("runs a hot transaction begun inside another as part of it", async () => {
    const [outer, inner] = [email(), email()];
    await expect(
      hotTransaction(database.db, async (tx) => {
        await writeBoth(tx, outer);
        await hotTransaction(database.db, (nested) => writeBoth(nested, inner));
        throw new Error("both go");
      }),
    ).rejects.toThrow("both go");
    expect(await database.db.user.count({ where: { email: { in: [outer, inner] } } })).toBe(0);
  });

  it("lets work that outlives its body start transactions of its own", async () => {
    const address = email();
    let later: Promise<unknown> = Promise.resolve();
    await hotTransaction(database.db, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
        database.db.$transaction(async (tx) => tx.user.create({ data: { email: address } })),
      );
    });
    await later;
    expect(await database.db.user.count({ where: { email: address } })).toBe(1);
  });

  it("holds back a write from outside until the open transaction ends, so its rollback keeps it", async () => {
    const [inside, typed, hot] = [email(), email(), email()];
    const held = gate();
    const transaction = hotTransaction(database.db, async (tx) => {
      await writeBoth(tx, inside);
      await held.opened;
      throw new Error("rolled back");
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another caller, outside any transaction, once through the typed client and once hot.
    const outside = Promise.all([
      database.db.user.create({ data: { email: typed } }),
      hotSqlOf(database.db).execute(
        sql`INSERT INTO ${sqlTable("User")} ("id", "email", "role", "sessionVersion", "createdAt", "updatedAt") VALUES (${hot}, ${hot}, 'user', 0, 0, 0)`,
      ),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.open();
    await expect(transaction).rejects.toThrow("rolled back");
    await outside;
    const stored = await database.db.user.findMany({ where: { email: { in: [inside, typed, hot] } } });
    expect(stored.map((user) => user.email).sort()).toEqual([hot, typed].sort());
  });

  it("holds back a hot write from outside while a Prisma transaction is open, so its rollback keeps it", async () => {
    const [inside, hot] = [email(), email()];
    const held = gate();
    const transaction = database.db
      .$transaction(async (tx) => {
        await tx.user.create({ data: { email: inside } });
        await held.opened;
        throw new Error("rolled back");
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = hotSqlOf(database.db).execute(
      sql`INSERT INTO ${sqlTable("User")} ("id", "email", "role", "sessionVersion", "createdAt", "updatedAt") VALUES (${hot}, ${hot}, 'user', 0, 0, 0)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    held.open();
    expect(await transaction).toBe("rolled back");
    expect(await outside).toBe(1);
    const stored = await database.db.user.findMany({ where: { email: { in: [inside, hot] } } });
    expect(stored.map((user) => user.email)).toEqual([hot]);
  });
});
