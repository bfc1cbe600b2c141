import "server-only";
import type { DbClient, DbTx } from "../db-types";
import { getDbProvider } from "./db-provider";
import { hotSqlOf, openSqliteConnection, sql, sqliteHandleOf } from "./hot-sql";
import {
  CONNECTION_WAIT_MS,
  connectWithin,
  isConnectionError,
  openPostgresPool,
  postgresHandleOf,
} from "./postgres-hot";
import { isClientItself } from "./prisma-internals";

/**
 * Serializes the transactions that count before they write under `key` (a person's tokens, the
 * admins): on PostgreSQL a lock held until `tx` ends, which Prisma cannot express; on SQLite the
 * one writer already does it, so nothing is sent.
 */
export async function lockUntilTransactionEnds(tx: DbTx, key: string): Promise<void> {
  if (getDbProvider({ db: tx }) !== "postgres") return;
  await hotSqlOf(tx).execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`toolnexus.${key}`}))`);
}

/** What `runUnlessLocked` did: ran its body, or found the lock held elsewhere and ran nothing. */
export type LockedRun<T> = { status: "ran"; value: T } | { status: "busy" };

/**
 * Runs `body` unless another instance is running one under `key`, in which case it returns at
 * once without waiting. Outside any transaction, so `body` may take long and run several.
 */
export async function runUnlessLocked<T>(
  db: DbClient,
  key: string,
  body: () => Promise<T>,
): Promise<LockedRun<T>> {
  if (!isClientItself(db)) throw new Error("runUnlessLocked takes a client, not a transaction");
  return getDbProvider({ db }) === "postgres"
    ? runUnlessLockedOnPostgres(db, `toolnexus.${key}`, body)
    : runUnlessLockedOnSqlite(db, key, body);
}

// PostgreSQL: a session lock on a connection kept from the pool while `body` runs (its statements
// go through the pool as usual). Should the process die, its session ends and the lock with it.
// Its keys are two numbers, a space PostgreSQL keeps apart from the one-number keys of
// `lockUntilTransactionEnds`: a long round never holds up a transaction whose key hashes alike.
const ROUND_LOCKS = 1;
async function runUnlessLockedOnPostgres<T>(
  db: DbClient,
  key: string,
  body: () => Promise<T>,
): Promise<LockedRun<T>> {
  const handle = postgresHandleOf(db);
  if (!handle) throw new Error("runUnlessLocked needs a client from createDb");
  const connection = await connectWithin(await openPostgresPool(db, handle), CONNECTION_WAIT_MS);
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  connection.on("error", onError);
  // The connection's own statements: one that failed on a lost connection drops it from the pool.
  const send = (text: string) =>
    connection.query<{ done: boolean }>(text, [key]).catch((error: unknown) => {
      if (isConnectionError(error)) broken ??= error as Error;
      throw error;
    });
  try {
    const taken = await send(`SELECT pg_try_advisory_lock(${ROUND_LOCKS}, hashtext($1)) AS done`);
    if (taken.rows[0]?.done !== true) return { status: "busy" };
    try {
      return { status: "ran", value: await body() };
    } finally {
      // Should the unlock fail, the connection is dropped instead: its session's end releases it.
      await send(`SELECT pg_advisory_unlock(${ROUND_LOCKS}, hashtext($1)) AS done`).catch((error: Error) => {
        broken ??= error;
      });
    }
  } finally {
    connection.removeListener("error", onError);
    connection.release(broken);
  }
}

// SQLite deployments are one process (ADR 0022), so the lock is this process's, per database
// file: every client of the file in the process sees it. Process-wide for the reason of
// `clientRecords`: Next bundles the background workers apart from the routes.
const sqliteLocksKey = Symbol.for("toolnexus.sqliteLocks");

function sqliteLocks(): Set<string> {
  const holder = globalThis as typeof globalThis & Record<symbol, Set<string> | undefined>;
  holder[sqliteLocksKey] ??= new Set<string>();
  return holder[sqliteLocksKey];
}

async function runUnlessLockedOnSqlite<T>(
  db: DbClient,
  key: string,
  body: () => Promise<T>,
): Promise<LockedRun<T>> {
  const handle = sqliteHandleOf(db);
  if (!handle) throw new Error("runUnlessLocked needs a client from createDb");
  const file = (await openSqliteConnection(db, handle)).name;
  const lock = `${file}\u0000${key}`;
  const locks = sqliteLocks();
  if (locks.has(lock)) return { status: "busy" };
  locks.add(lock);
  try {
    return { status: "ran", value: await body() };
  } finally {
    locks.delete(lock);
  }
}
