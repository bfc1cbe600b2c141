import "server-only";
import type { Database, Statement } from "better-sqlite3";
import { outsideTransactions } from "./connection-turns";
import { baseClientOf, clientRecords, type DbProvider, getDbProvider, getRawTableName } from "./db-provider";
import type { DbClient, DbTx } from "./db-types";
import { openPostgresPool, postgresConnectionOf, postgresHandleOf, sendPostgres } from "./postgres-hot";

// The engine's hot path (appending events, a safe point's writes, the transcript) spends most
// of its time in Prisma's typed client, not in the database: about 260 µs a statement against
// 10–20 µs for the same statement prepared once on better-sqlite3 (ADR 0045). Its statements are
// written here once for both databases and run, on SQLite, straight on the connection Prisma
// itself holds (so inside the caller's Prisma transaction, with its locks and its rollback), and
// on PostgreSQL as raw SQL through Prisma, in the caller's transaction as well.

/** A value of a statement; what is not a plain string, number or null says how to store it. */
export type SqlValue = string | number | null | Typed;

class Typed {
  constructor(
    readonly kind: "json" | "jsonText" | "time" | "int" | "bool",
    readonly value: string | number | Date | boolean | null,
  ) {}
}

// Typed, so that PostgreSQL is told each value's type (a null too) rather than guessing it.
/** JSON text for a Json column (jsonb on PostgreSQL). */
export const sqlJson = (text: string | null): SqlValue => new Typed("json", text);
/** JSON text for a Json column that keeps it as written (`@db.Json`: json on PostgreSQL). */
export const sqlJsonText = (text: string | null): SqlValue => new Typed("jsonText", text);
/** A DateTime column's value, stored as Prisma stores it on each database. */
export const sqlTime = (at: Date | null): SqlValue => new Typed("time", at);
export const sqlInt = (value: number | null): SqlValue => new Typed("int", value);
export const sqlBool = (value: boolean): SqlValue => new Typed("bool", value);

class Table {
  constructor(readonly name: string) {}
}
/** A table of the schema, named as Prisma names it on this client (schema-qualified on PostgreSQL). */
export const sqlTable = (name: string) => new Table(name);

class Columns {
  constructor(readonly names: readonly string[]) {}
}
/** `"a", "b"`: a fixed list of the schema's column names, for a RETURNING or SELECT list. */
export const sqlColumns = (names: readonly string[]) => new Columns(names);

class List {
  constructor(readonly values: readonly SqlValue[]) {}
}
/** `$1, $2, …` for an `IN (…)`; never empty (`IN ()` is no statement on PostgreSQL). */
export function sqlList(values: readonly SqlValue[]): List {
  if (values.length === 0) throw new Error("sqlList needs at least one value");
  return new List(values);
}

class Rows {
  constructor(readonly rows: readonly (readonly SqlValue[])[]) {}
}
/** `(…), (…)` for a multi-row INSERT. */
export const sqlRows = (rows: readonly (readonly SqlValue[])[]) => new Rows(rows);

/**
 * `rows` cut into lots for one multi-row INSERT each, well inside either database's limit on a
 * statement's values (32,766 on SQLite, 65,535 on PostgreSQL), as Prisma's createMany cuts them.
 */
export function inInsertBatches<T>(rows: readonly T[], size = 200): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < rows.length; start += size) batches.push(rows.slice(start, start + size));
  return batches;
}

type SqlPart = SqlValue | Table | Columns | List | Rows | SqlStatement;

/** Text and values kept apart; a statement may hold others, rendered in place with their values. */
export class SqlStatement {
  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly SqlPart[],
  ) {}
}

/** A statement with its values apart from its text: `sql\`… WHERE "id" = ${id}\``. */
export function sql(strings: TemplateStringsArray, ...parts: SqlPart[]): SqlStatement {
  return new SqlStatement(strings, parts);
}

/** `statements` one after another with `separator` between them (none may be empty). */
export function sqlJoin(statements: readonly SqlStatement[], separator: ", " | " AND "): SqlStatement {
  if (statements.length === 0) throw new Error("sqlJoin needs at least one statement");
  return new SqlStatement(["", ...statements.slice(1).map(() => separator), ""], statements);
}

interface Rendered {
  text: string;
  values: unknown[];
}

function render(
  statement: SqlStatement,
  provider: DbProvider,
  tableName: (table: string) => string,
): Rendered {
  const values: unknown[] = [];
  const placeholder = (value: SqlValue): string => {
    if (!(value instanceof Typed)) {
      values.push(value);
      return provider === "sqlite" ? "?" : `$${values.length}`;
    }
    const { kind, value: raw } = value;
    if (raw === null) values.push(null);
    else if (provider === "sqlite") {
      // Prisma's SQLite adapter writes DateTime as ISO 8601 text with "+00:00", Boolean as 0/1.
      if (kind === "time") values.push((raw as Date).toISOString().replace("Z", "+00:00"));
      else if (kind === "bool") values.push(raw ? 1 : 0);
      else values.push(raw);
    }
    // timestamp(3) keeps UTC wall time, as Prisma writes it; the zone in the text is ignored.
    else if (kind === "time") values.push((raw as Date).toISOString());
    else values.push(raw);
    if (provider === "sqlite") return "?";
    const cast = { json: "jsonb", jsonText: "json", time: "timestamp(3)", int: "int4", bool: "boolean" }[
      kind
    ];
    return `$${values.length}::${cast}`;
  };
  let text = "";
  const append = (inner: SqlStatement) => {
    text += inner.strings[0]!;
    inner.parts.forEach((part, index) => {
      if (part instanceof SqlStatement) append(part);
      else if (part instanceof Table) text += tableName(part.name);
      else if (part instanceof Columns) text += part.names.map((name) => `"${name}"`).join(", ");
      else if (part instanceof List) text += part.values.map(placeholder).join(", ");
      else if (part instanceof Rows)
        text += part.rows.map((row) => `(${row.map(placeholder).join(", ")})`).join(", ");
      else text += placeholder(part);
      text += inner.strings[index + 1]!;
    });
  };
  append(statement);
  return { text, values };
}

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

/** A client from createDb rather than one of its transactions, which have no `$connect`. */
function isClientItself(client: DbClient | DbTx): client is DbClient {
  return typeof (client as { $connect?: unknown }).$connect === "function";
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
