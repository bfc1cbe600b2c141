import "server-only";
import { createHash } from "node:crypto";
import pg, { type CustomTypesConfig, type Pool, type PoolClient, type QueryResult } from "pg";
import type { DbClient, DbTx } from "../db-types";
import { clientRecords } from "./db-provider";
import { baseClientOf, viewOf } from "./prisma-internals";

// On PostgreSQL every statement through Prisma's raw path, and every interactive transaction,
// costs far more in Prisma's client than on the server: a three-statement transaction took
// about 1.3 ms through `$transaction` against 0.4 ms as BEGIN … COMMIT on a connection of the
// same pool (ADR 0049). The engine's statements are hot SQL only, so they run on the pool Prisma's
// adapter opened: outside a transaction on the pool, inside one on a connection taken from it.

/** The pool Prisma's PostgreSQL adapter opened for a client, once Prisma connected. */
export type PostgresHandle = { pool?: Pool };

const handles = clientRecords<PostgresHandle>("postgresHandles");

/** Called by createDb: `handle.pool` is filled in when the adapter connects. */
export function recordPostgresHandle({ db, handle }: { db: DbClient; handle: PostgresHandle }): void {
  handles.set(baseClientOf(db), handle);
}

/** The handle of a client from createDb on PostgreSQL (or of one of its transactions). */
export function postgresHandleOf(client: DbClient | DbTx): PostgresHandle | undefined {
  return handles.get(baseClientOf(client));
}

export async function openPostgresPool(db: DbClient, handle: PostgresHandle): Promise<Pool> {
  // Prisma opens its pool on first use; a client used here first opens it now.
  if (!handle.pool) await db.$connect();
  if (!handle.pool) throw new Error("the PostgreSQL pool did not open");
  return handle.pool;
}

// Values come back as Prisma's raw path hands them back, so the statements' readers serve both:
// timestamp(3) as a Date of the UTC wall time Prisma wrote (pg would read it as local time),
// bigint as BigInt; the rest as pg reads them (jsonb decoded, int4 and floats as numbers).
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
const HOT_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === TIMESTAMP_OID) return (text: string) => new Date(`${text.replace(" ", "T")}Z`);
    if (oid === INT8_OID) return (text: string) => BigInt(text);
    return pg.types.getTypeParser(oid, format);
  }) as CustomTypesConfig["getTypeParser"],
};

/** One statement on the pool (a statement of its own) or on a transaction's connection. */
export function sendPostgres(
  target: Pool | PoolClient,
  text: string,
  values: unknown[],
): Promise<QueryResult<Record<string, unknown>>> {
  return target.query({ name: statementName(text), text, values, types: HOT_TYPES });
}

// Named, so each connection parses and plans a statement's text once and then only binds and
// runs it (ADR 0050): the engine sends a few dozen distinct texts, each thousands of times. The
// name is a digest of the text, so one text is always one name; remembered for the texts seen.
const names = new Map<string, string>();
const MAX_NAMES = 2_000;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `tn_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

const connections = new WeakMap<object, PoolClient>();

/** The connection of a hot transaction's `tx` on PostgreSQL; undefined for any other client. */
export function postgresConnectionOf(client: DbClient | DbTx): PoolClient | undefined {
  return connections.get(client);
}

// Prisma's `engineTransaction` waits up to 10 s for a connection and ends a transaction after
// 20 s; the same bounds here, the second enforced by the server (a body stuck between statements
// has its session ended rather than holding its locks and its connection for ever).
export const CONNECTION_WAIT_MS = 10_000;
const BEGIN = "BEGIN; SET LOCAL idle_in_transaction_session_timeout = 20000";

/**
 * `body` in one transaction on a connection of the pool. Its `tx` runs hot statements only
 * (`hotSqlOf(tx)`): a typed Prisma call through it would run on another connection, outside the
 * transaction, so it throws instead.
 */
export async function postgresHotTransaction<T>(
  db: DbClient,
  handle: PostgresHandle,
  body: (tx: DbTx) => Promise<T>,
): Promise<T> {
  const pool = await openPostgresPool(db, handle);
  const connection = await connectWithin(pool, CONNECTION_WAIT_MS);
  const tx = hotOnlyTransaction(db);
  connections.set(tx, connection);
  let broken: Error | undefined;
  // A checked-out connection's own errors (the server ending its session) would otherwise be
  // thrown as uncaught; the statement waiting on it fails anyway, and the pool drops it after.
  const onError = (error: Error) => {
    broken = error;
  };
  connection.on("error", onError);
  try {
    await connection.query(BEGIN);
    try {
      const result = await body(tx);
      await connection.query("COMMIT");
      return result;
    } catch (error) {
      await connection.query("ROLLBACK").catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    }
  } catch (error) {
    // A connection that failed mid-transaction may be in any state: the pool drops it.
    broken ??= isConnectionError(error) ? (error as Error) : undefined;
    throw error;
  } finally {
    connections.delete(tx);
    connection.removeListener("error", onError);
    connection.release(broken);
  }
}

export function isConnectionError(error: unknown): boolean {
  // Server-side errors carry a SQLSTATE; a lost or ended connection does not.
  return !(error instanceof pg.DatabaseError);
}

/** A connection of `pool` to keep for a while, or an error once `ms` passed without one free. */
export async function connectWithin(pool: Pool, ms: number): Promise<PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const connecting = pool.connect();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(new Error(`no database connection became free within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([connecting, timeout]);
  } finally {
    clearTimeout(timer);
    // One that arrives after we gave up goes straight back.
    if (late) connecting.then((connection) => connection.release()).catch(() => {});
  }
}

// Names asked of any object by the runtime and by tools that print it (awaiting, JSON, the
// client-or-transaction check of hot-sql.ts); none is a statement, so they read as absent.
const PROBES = new Set(["then", "toJSON", "$connect", "asymmetricMatch", "nodeType", "$$typeof"]);

function hotOnlyTransaction(db: DbClient): DbTx {
  const target = viewOf(baseClientOf(db));
  return new Proxy(target, {
    get(object, key) {
      if (typeof key === "symbol" || key in object || PROBES.has(key)) return Reflect.get(object, key);
      throw new Error(
        `db.${key} was used inside a hot transaction on PostgreSQL; run the statement through hotSqlOf(tx)`,
      );
    },
  }) as unknown as DbTx;
}
