import "server-only";
import type { DbClient, DbTx } from "../db-types";
import { insideTransaction, outsideTransactions, runAsTransaction, takeTurn } from "./connection-turns";
import { openSqliteConnection, prepared, type SqliteHandle, sqliteHandleOf } from "./hot-sql";
import { postgresConnectionOf, postgresHandleOf, postgresHotTransaction } from "./postgres-hot";
import { hookAdapter } from "./prisma-internals";
import { engineTransaction } from "./transaction-options";

// Prisma's interactive transaction costs about 100 µs of its own on the embedded database
// (a transaction id, timers, a client proxy, BEGIN and COMMIT sent through its query pipeline),
// five to ten times what the statements of a safe point cost there. The engine's transactions
// hold nothing but hot statements (ADR 0045), so on SQLite they run as BEGIN … COMMIT on the
// connection itself (ADR 0047), taking turns with Prisma's own (`connection-turns.ts`); on
// PostgreSQL on a connection of the adapter's pool (ADR 0049, `postgres-hot.ts`).

/**
 * Runs `body` in one transaction of `db`, as `db.$transaction` would. On SQLite the body's `tx`
 * is the client itself: every statement of its connection is inside the transaction while it is
 * open, as with Prisma's (one connection). A body may only run statements; a Prisma transaction
 * started inside it is refused rather than left to wait for this one. On PostgreSQL the body runs
 * hot statements only (a typed call through its `tx` throws).
 */
export async function hotTransaction<T>(db: DbClient, body: (tx: DbTx) => Promise<T>): Promise<T> {
  const handle = sqliteHandleOf(db);
  if (!handle) {
    const postgres = postgresHandleOf(db);
    if (!postgres) return db.$transaction(body, engineTransaction);
    // Begun inside another (its `tx` passed on as a client): part of that one, as on SQLite.
    if (postgresConnectionOf(db)) return body(db as unknown as DbTx);
    return postgresHotTransaction(db, postgres, body);
  }
  const tx = db as unknown as DbTx;
  if (insideTransaction(handle)) return body(tx);
  const connection = await openSqliteConnection(db, handle);
  const release = await takeTurn(handle);
  try {
    prepared(connection, "BEGIN").run();
    try {
      const result = await runAsTransaction(handle, () => body(tx));
      prepared(connection, "COMMIT").run();
      return result;
    } catch (error) {
      // A failed statement may have ended the transaction already (SQLite rolls back on some).
      if (connection.inTransaction) prepared(connection, "ROLLBACK").run();
      throw error;
    }
  } finally {
    release();
  }
}

/**
 * Has the adapter take turns with `hotTransaction`: its own transactions (Prisma's
 * `$transaction`, and any a typed write needs) wait for the connection's turn, and so do its
 * statements outside a transaction (a transaction's own go through the transaction's object).
 */
export function queueAdapterTransactions(adapter: object, handle: SqliteHandle): void {
  hookAdapter(adapter, {
    statement: (send) => outsideTransactions(handle, send),
    async transaction() {
      if (insideTransaction(handle))
        throw new Error(
          "A Prisma transaction cannot start inside a hot transaction; run its statements on the hot transaction's client",
        );
      // Held until Prisma has sent COMMIT or ROLLBACK: the connection is free after.
      return takeTurn(handle);
    },
  });
}
