import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { DbClient, DbTx } from "./db-types";
import { openSqliteConnection, prepared, type SqliteHandle, sqliteHandleOf } from "./hot-sql";
import { engineTransaction } from "./transaction-options";

// Prisma's interactive transaction costs about 100 µs of its own on the embedded database
// (a transaction id, timers, a client proxy, BEGIN and COMMIT sent through its query pipeline),
// five to ten times what the statements of a safe point cost there. The engine's transactions
// hold nothing but hot statements (ADR 0045), so on SQLite they run as BEGIN … COMMIT on the
// connection itself (ADR 0047), queued with Prisma's own transactions on one lock.

/** A queue of one: the connection holds a single transaction at a time. */
class TransactionLock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => turn);
    return ready;
  }
}

const locks = new WeakMap<SqliteHandle, TransactionLock>();
function lockOf(handle: SqliteHandle): TransactionLock {
  let lock = locks.get(handle);
  if (!lock) {
    lock = new TransactionLock();
    locks.set(handle, lock);
  }
  return lock;
}

// Which hot transaction the current async context runs in, while it is open.
type Open = { handle: SqliteHandle; open: boolean };
const current = new AsyncLocalStorage<Open>();
const openHere = (handle: SqliteHandle) => {
  const store = current.getStore();
  return store?.handle === handle && store.open;
};

/**
 * Runs `body` in one transaction of `db`, as `db.$transaction` would. On SQLite the body's `tx`
 * is the client itself: every statement of its connection is inside the transaction while it is
 * open, as with Prisma's (one connection). A body may only run statements, hot or typed; a
 * Prisma transaction started inside it is refused rather than left to wait for this one.
 */
export async function hotTransaction<T>(db: DbClient, body: (tx: DbTx) => Promise<T>): Promise<T> {
  const handle = sqliteHandleOf(db);
  if (!handle) return db.$transaction(body, engineTransaction);
  const tx = db as unknown as DbTx;
  if (openHere(handle)) return body(tx);
  const connection = await openSqliteConnection(db, handle);
  const release = await lockOf(handle).acquire();
  const open: Open = { handle, open: true };
  try {
    prepared(connection, "BEGIN").run();
    try {
      const result = await current.run(open, () => body(tx));
      prepared(connection, "COMMIT").run();
      return result;
    } catch (error) {
      // A failed statement may have ended the transaction already (SQLite rolls back on some).
      if (connection.inTransaction) prepared(connection, "ROLLBACK").run();
      throw error;
    }
  } finally {
    open.open = false;
    release();
  }
}

interface AdapterTransaction {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * Queues the adapter's own transactions (Prisma's `$transaction`, and any a typed write needs)
 * on the same lock as `hotTransaction`, so the two never overlap on the connection.
 */
export function queueAdapterTransactions(
  adapter: { startTransaction(...args: never[]): Promise<unknown> },
  handle: SqliteHandle,
): void {
  const start = adapter.startTransaction.bind(adapter) as (...args: unknown[]) => Promise<AdapterTransaction>;
  adapter.startTransaction = async (...args: unknown[]) => {
    if (openHere(handle))
      throw new Error(
        "A Prisma transaction cannot start inside a hot transaction; run its statements on the hot transaction's client",
      );
    const release = await lockOf(handle).acquire();
    let transaction: AdapterTransaction;
    try {
      transaction = await start(...args);
    } catch (error) {
      release();
      throw error;
    }
    // Prisma sends COMMIT or ROLLBACK itself, then tells the adapter; the connection is free after.
    let released = false;
    const settle = () => {
      if (released) return;
      released = true;
      release();
    };
    const { commit, rollback } = transaction;
    transaction.commit = () => commit.call(transaction).finally(settle);
    transaction.rollback = () => rollback.call(transaction).finally(settle);
    return transaction;
  };
}
