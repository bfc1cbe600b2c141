import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/postgres/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/generated/sqlite/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "../testing/test-database";
import type { Db } from "./client";
import { sqliteFileOf } from "./database-url";
import {
  type AdapterHooks,
  baseClientOf,
  beforeDispose,
  hookAdapter,
  isClientItself,
  PrismaInternalsMoved,
  postgresPoolOf,
  sqliteConnectionOf,
  viewOf,
} from "./prisma-internals";

// These pin, against the installed Prisma, each thing prisma-internals.ts relies on. After a
// Prisma upgrade a failure here names what moved (the test's message, or PrismaInternalsMoved's).

type Seen = { statements: number; begun: number; ended: number; disposed: number; connected: object[] };

/** A client on Prisma's own adapter for `provider`, hooked as createDb hooks its adapters. */
function hookedClient(provider: TestProvider, url: string, seen: Seen): Db {
  const hooks: AdapterHooks = {
    async statement(send) {
      seen.statements += 1;
      return send();
    },
    async transaction() {
      seen.begun += 1;
      return () => {
        seen.ended += 1;
      };
    },
  };
  const inner =
    provider === "sqlite"
      ? new PrismaBetterSqlite3({ url: sqliteFileOf(url) })
      : new PrismaPg({ connectionString: url });
  const adapter: SqlDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const connected = await inner.connect();
      seen.connected.push(connected);
      hookAdapter(connected, hooks);
      beforeDispose(connected, () => {
        seen.disposed += 1;
      });
      return connected;
    },
  };
  return provider === "sqlite"
    ? new SqlitePrismaClient({ adapter })
    : (new PostgresPrismaClient({ adapter }) as unknown as Db);
}

describe.each<TestProvider>(["sqlite", "postgres"])(
  "what lib/db relies on inside Prisma, on %s",
  (provider) => {
    let database: TestDatabase;
    let db: Db;
    const seen: Seen = { statements: 0, begun: 0, ended: 0, disposed: 0, connected: [] };

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      db = hookedClient(provider, database.url, seen);
      await db.$connect();
    });
    afterAll(async () => {
      await db.$disconnect();
      await database.drop();
    });

    it("leads from a transaction's client to its client through `_originalClient`", async () => {
      expect(isClientItself(db), "a client from new PrismaClient() no longer has $connect").toBe(true);
      await db.$transaction(async (tx) => {
        expect(baseClientOf(tx), "a transaction's `tx` no longer keeps its client as `_originalClient`").toBe(
          baseClientOf(db),
        );
        expect(isClientItself(tx), "a transaction's `tx` now has $connect, so it passes for a client").toBe(
          false,
        );
      });
      expect(baseClientOf(viewOf(baseClientOf(db)))).toBe(baseClientOf(db));
    });

    it("hands out the driver the adapter opened", async () => {
      const [connected] = seen.connected;
      expect(connected, "Prisma did not connect the adapter on $connect").toBeDefined();
      if (provider === "sqlite") {
        expect(sqliteConnectionOf(connected!).prepare("SELECT 1 AS one").get()).toEqual({ one: 1n });
      } else {
        expect((await postgresPoolOf(connected!).query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      }
    });

    it("sends statements outside a transaction through the adapter's queryRaw and executeRaw", async () => {
      const before = seen.statements;
      await db.user.count();
      await db.$executeRawUnsafe(`DELETE FROM "User" WHERE id = 'none'`);
      expect(
        seen.statements - before,
        "Prisma no longer sends statements through adapter.queryRaw/executeRaw",
      ).toBe(2);
    });

    it("begins its transactions through startTransaction and ends them through commit and rollback", async () => {
      const before = { ...seen };
      await db.$transaction(async (tx) => tx.user.count());
      await expect(
        db.$transaction(async (tx) => {
          await tx.user.count();
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(
        seen.begun - before.begun,
        "Prisma no longer begins transactions through adapter.startTransaction",
      ).toBe(2);
      expect(
        seen.ended - before.ended,
        "Prisma no longer ends transactions through their commit/rollback",
      ).toBe(2);
      expect(
        seen.statements - before.statements,
        "a transaction's statements were sent as outside ones",
      ).toBe(0);
    });

    it("disposes of the adapter through its dispose on $disconnect", async () => {
      const other = hookedClient(provider, database.url, seen);
      await other.$connect();
      const before = seen.disposed;
      await other.$disconnect();
      expect(seen.disposed - before, "Prisma no longer calls adapter.dispose on $disconnect").toBe(1);
    });
  },
);

describe("when Prisma's internals move", () => {
  it("names what moved instead of failing somewhere later", () => {
    expect(() => sqliteConnectionOf({})).toThrow(PrismaInternalsMoved);
    expect(() => sqliteConnectionOf({})).toThrow(/keeps its connection as `client`/);
    expect(() => postgresPoolOf({ underlyingDriver: () => ({}) })).toThrow(/`underlyingDriver\(\)`/);
    expect(() =>
      hookAdapter(
        { queryRaw: async () => 0 },
        { statement: (send) => send(), transaction: async () => () => {} },
      ),
    ).toThrow(/no `executeRaw` method/);
  });
});
