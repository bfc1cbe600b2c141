import "server-only";
import type { Database, Statement } from "better-sqlite3";
import type { DbClient, DbTx } from "../db-types";
import { outsideTransactions } from "./connection-turns";
import { clientRecords, type DbProvider, getDbProvider, getRawTableName } from "./db-provider";
import { openPostgresPool, postgresConnectionOf, postgresHandleOf, sendPostgres } from "./postgres-hot";
import { baseClientOf, isClientItself as isClient } from "./prisma-internals";
import { renderStatement as render, type SqlStatement } from "./sql-statement";

// The engine's hot path (appending events, a safe point's writes, the transcript) spends most
// of its time in Prisma's typed client, not in the database: about 260 µs a statement against
// 10–20 µs for the same statement prepared once on better-sqlite3 (ADR 0045). Its statements are
// written here once for both databases and run straight on the driver Prisma's adapter opened:
// on SQLite on its better-sqlite3 connection (so inside the caller's Prisma transaction, with its
// locks and its rollback), on PostgreSQL on its pg pool, or on the connection of the caller's
// hot transaction (ADR 0049, postgres-hot.ts). Only Prisma's own transactions on PostgreSQL, and
// clients created without createDb, still send them through Prisma's raw path.

// The statements themselves are built in sql-statement.ts; its builders are used through here.
export {
  inInsertBatches,
  SqlStatement,
  type SqlValue,
  sql,
  sqlBool,
  sqlColumns,
  sqlInsertRows,
  sqlInt,
  sqlJoin,
  sqlJson,
  sqlJsonText,
  sqlList,
  sqlRows,
  sqlTable,
  sqlTime,
} from "./sql-statement";

/** Runs the engine's hot statements on one client or inside one of its transactions. */
export interface HotSql {
  readonly provider: DbProvider;
  /** The rows a statement returns (a SELECT, or a write with RETURNING). */
  query<T>(statement: SqlStatement): Promise<T[]>;
  /** How many rows a write changed. */
  execute(statement: SqlStatement): Promise<number>;
}

/** The connection better-sqlite3 opened for a client's Prisma adapter, once Prisma connected. */
export type SqliteHandle = { connection?: Database };

const handles = clientRecords<SqliteHandle>("sqliteHandles");

/** Called by createDb: `handle.connection` is filled in when the adapter connects. */
export function recordSqliteHandle({ db, handle }: { db: DbClient; handle: SqliteHandle }): void {
  handles.set(baseClientOf(db), handle);
}

const statementCache = new WeakMap<Database, Map<string, Statement>>();

/** `text` prepared once per connection (statements of this module and hot-transaction.ts). */
export function prepared(connection: Database, text: string): Statement {
  let cache = statementCache.get(connection);
  if (!cache) {
    cache = new Map();
    statementCache.set(connection, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    // Texts differ only by their number of rows; a bound keeps an odd workload from hoarding them.
    if (cache.size >= 1_000) cache.clear();
    statement = connection.prepare(text);
    // The connection hands integers back as BigInt by default (Prisma's choice); ours fit.
    if (statement.reader) statement.safeIntegers(false);
    cache.set(text, statement);
  }
  return statement;
}

/** A client from createDb rather than one of its transactions. */
function isClientItself(client: DbClient | DbTx): client is DbClient {
  return isClient(client);
}

/** The SQLite connection under `client` (a client from createDb or one of its transactions), if any. */
export function sqliteHandleOf(client: DbClient | DbTx): SqliteHandle | undefined {
  return getDbProvider({ db: client }) === "sqlite" ? handles.get(baseClientOf(client)) : undefined;
}

export async function openSqliteConnection(client: DbClient | DbTx, handle: SqliteHandle): Promise<Database> {
  // Prisma opens its connection on first use; a client used here first opens it now.
  if (!handle.connection && isClientItself(client)) await client.$connect();
  if (!handle.connection) throw new Error("the SQLite connection did not open");
  return handle.connection;
}

/**
 * The hot statements of `client` (a client from createDb, or a transaction of one). Inside a
 * transaction they join it; outside, each is a statement of its own, as Prisma's are.
 */
export function hotSqlOf(client: DbClient | DbTx): HotSql {
  const provider = getDbProvider({ db: client });
  const tableName = (table: string) => getRawTableName({ db: client, table });
  const handle = handles.get(baseClientOf(client));
  if (provider === "sqlite" && handle) {
    const connection = () => openSqliteConnection(client, handle);
    // Through a Prisma transaction's client the statement is that transaction's; through the
    // client itself it waits for any transaction another caller holds (connection-turns.ts).
    const outside = isClientItself(client);
    const send = async <T>(run: (connection: Database) => T) => {
      const open = await connection();
      return outside ? outsideTransactions(handle, () => run(open)) : run(open);
    };
    return {
      provider,
      query<T>(statement: SqlStatement) {
        const { text, values } = render(statement, provider, tableName);
        return send((open) => prepared(open, text).all(...values) as T[]);
      },
      execute(statement) {
        const { text, values } = render(statement, provider, tableName);
        return send((open) => prepared(open, text).run(...values).changes);
      },
    };
  }
  // PostgreSQL: a hot transaction's statements on its connection, the client's own on the pool.
  const postgres = postgresHandleOf(client);
  const inTransaction = postgresConnectionOf(client);
  if (provider === "postgres" && postgres && (inTransaction || isClientItself(client))) {
    const send = async (statement: SqlStatement) => {
      const { text, values } = render(statement, provider, tableName);
      const target = inTransaction ?? (await openPostgresPool(client as DbClient, postgres));
      return sendPostgres(target, text, values);
    };
    return {
      provider,
      async query<T>(statement: SqlStatement) {
        return (await send(statement)).rows as T[];
      },
      async execute(statement) {
        return (await send(statement)).rowCount ?? 0;
      },
    };
  }
  // Prisma's own transactions on PostgreSQL, and any client created without a handle (a test's
  // logging client).
  return {
    provider,
    query<T>(statement: SqlStatement) {
      const { text, values } = render(statement, provider, tableName);
      return client.$queryRawUnsafe<T[]>(text, ...values);
    },
    execute(statement) {
      const { text, values } = render(statement, provider, tableName);
      return client.$executeRawUnsafe(text, ...values);
    },
  };
}

/** A DateTime column as either database hands it back. */
export function readSqlTime(value: unknown): Date {
  return value instanceof Date ? value : new Date(value as string | number);
}

/** A Json column as either database hands it back (text on SQLite, decoded on PostgreSQL). */
export function readSqlJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
