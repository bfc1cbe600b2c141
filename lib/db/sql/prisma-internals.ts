import "server-only";
import type { Database } from "better-sqlite3";
import type { Pool } from "pg";

// Every place lib/db relies on how Prisma 7 and its driver adapters work inside, rather than on
// what they document, is in this file: the hot path (ADR 0045, 0047, 0049) needs the connection
// and the pool Prisma opened, and needs Prisma's own transactions to take turns with it. A Prisma
// upgrade that moves one of these fails here with PrismaInternalsMoved, which names what moved;
// `prisma-internals.test.ts` checks each of them on both databases against the installed Prisma.

/** What lib/db relied on in Prisma, and is no longer there. */
export class PrismaInternalsMoved extends Error {
  constructor(what: string) {
    super(
      `Prisma's internals moved: ${what}. lib/db/sql/prisma-internals.ts relies on it for the hot path; ` +
        "adapt that file to the installed Prisma.",
    );
    this.name = "PrismaInternalsMoved";
  }
}

/**
 * The object behind a client and behind every transaction it opens: Prisma hands out views of
 * it (the client itself is one, a transaction's `tx` another) that keep it as `_originalClient`,
 * so a record kept under it is found from a transaction too.
 */
export function baseClientOf(client: object): object {
  return (client as { _originalClient?: object })._originalClient ?? client;
}

/** An object `baseClientOf` leads to `base` from: the target of a transaction view of our own. */
export function viewOf(base: object): { _originalClient: object } {
  return { _originalClient: base };
}

/** A client from createDb rather than one of its transactions: Prisma's `tx` has no `$connect`. */
export function isClientItself(client: object): boolean {
  return typeof (client as { $connect?: unknown }).$connect === "function";
}

/** better-sqlite3's connection, which Prisma's SQLite adapter keeps as `client` once connected. */
export function sqliteConnectionOf(adapter: object): Database {
  const connection = (adapter as { client?: Partial<Database> }).client;
  if (typeof connection?.prepare !== "function" || typeof connection.exec !== "function")
    throw new PrismaInternalsMoved(
      "the better-sqlite3 adapter no longer keeps its connection as `client` (a better-sqlite3 Database)",
    );
  return connection as Database;
}

/** The pg pool Prisma's PostgreSQL adapter opened, which it hands out by `underlyingDriver()`. */
export function postgresPoolOf(adapter: object): Pool {
  const underlying = (adapter as { underlyingDriver?: () => unknown }).underlyingDriver;
  const pool = typeof underlying === "function" ? (underlying.call(adapter) as Partial<Pool>) : undefined;
  if (typeof pool?.connect !== "function" || typeof pool.query !== "function")
    throw new PrismaInternalsMoved("the pg adapter's `underlyingDriver()` no longer returns its pg Pool");
  return pool as Pool;
}

type Send = (...args: never[]) => Promise<unknown>;

/** What a connected adapter does around the statements and transactions Prisma sends through it. */
export type AdapterHooks = {
  /** Runs each statement Prisma sends outside a transaction (`send` sends it). */
  statement<T>(send: () => Promise<T>): Promise<T>;
  /** Runs before Prisma's transaction begins; what it returns runs once it committed or rolled back. */
  transaction(): Promise<() => void>;
};

function methodOf(adapter: object, name: string): Send {
  const method = (adapter as Record<string, unknown>)[name];
  if (typeof method !== "function")
    throw new PrismaInternalsMoved(`the driver adapter has no \`${name}\` method to wrap`);
  return (method as Send).bind(adapter);
}

/**
 * Wraps a connected adapter's methods in place. This relies on Prisma calling them through the
 * adapter object (so the replacements are what it calls), sending every statement outside a
 * transaction through `queryRaw` / `executeRaw`, and, for a transaction, sending COMMIT or
 * ROLLBACK itself before it calls the transaction object's `commit` / `rollback`.
 */
export function hookAdapter(adapter: object, hooks: AdapterHooks): void {
  const target = adapter as Record<string, unknown>;
  for (const name of ["queryRaw", "executeRaw"]) {
    const send = methodOf(adapter, name);
    target[name] = (query: never) => hooks.statement(() => send(query));
  }
  const start = methodOf(adapter, "startTransaction");
  target.startTransaction = async (...args: never[]) => {
    const release = await hooks.transaction();
    let transaction: Record<string, unknown>;
    try {
      transaction = (await start(...args)) as Record<string, unknown>;
      for (const name of ["commit", "rollback"]) {
        const end = methodOf(transaction, name);
        transaction[name] = () => end().finally(release);
      }
    } catch (error) {
      release();
      throw error;
    }
    return transaction;
  };
}

/** Runs `before` when Prisma disposes of the adapter (on `$disconnect`), ahead of its own dispose. */
export function beforeDispose(adapter: object, before: () => void | Promise<void>): void {
  const dispose = methodOf(adapter, "dispose");
  (adapter as Record<string, unknown>).dispose = async () => {
    await before();
    await dispose();
  };
}
