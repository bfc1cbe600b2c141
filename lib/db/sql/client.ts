import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { Database } from "better-sqlite3";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/postgres/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/generated/sqlite/client";
import { resolveDatabaseUrl, sqliteFileOf } from "./database-url";
import { recordDbProvider } from "./db-provider";
import { recordSqliteHandle } from "./hot-sql";
import { queueAdapterTransactions } from "./hot-transaction";
import { type PostgresHandle, recordPostgresHandle } from "./postgres-hot";
import { beforeDispose, postgresPoolOf, sqliteConnectionOf } from "./prisma-internals";
import { watchSqliteCheckpoints } from "./wal-checkpointer";

/**
 * The typed database client. Both generated clients come from the same model and differ only in
 * provider internals, so the SQLite client's type describes the PostgreSQL one as well.
 */
export type Db = SqlitePrismaClient;

export type { Prisma } from "@/lib/generated/sqlite/client";

const SQLITE_BUSY_TIMEOUT_MS = 5_000;

// WAL lets readers proceed during a write; NORMAL sync is durable across app crashes in WAL
// mode and keeps a commit to one fsync-free append, which the park/answer latency targets need
// (ADR 0029 says what a power cut can cost and why that is acceptable here). SQLite's default
// page cache is 2 MB; with a million parked runs the indexes an answer walks no longer fit, and
// every answer re-reads their pages from the OS. 64 MiB is an upper bound, only used as filled
// (ADR 0043).
const SQLITE_CACHE_KIB = 64 * 1024;
const SQLITE_CONNECTION_PRAGMAS = [
  "PRAGMA journal_mode = WAL;",
  "PRAGMA synchronous = NORMAL;",
  "PRAGMA foreign_keys = ON;",
  `PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS};`,
  `PRAGMA cache_size = -${SQLITE_CACHE_KIB};`,
].join("\n");

function sqliteAdapterFactory(url: string, handle: { connection?: Database }): SqlDriverAdapterFactory {
  const file = sqliteFileOf(url);
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const inner = new PrismaBetterSqlite3({ url: file, timeout: SQLITE_BUSY_TIMEOUT_MS });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      await adapter.executeScript(SQLITE_CONNECTION_PRAGMAS);
      // The hot path's statements run on better-sqlite3's connection directly (ADR 0045).
      const connection = sqliteConnectionOf(adapter);
      handle.connection = connection;
      // Prisma's transactions and the engine's own take turns on the connection (ADR 0047).
      queueAdapterTransactions(adapter, handle);
      // Checkpoints run on a worker thread, off this connection's commits (ADR 0046).
      beforeDispose(adapter, watchSqliteCheckpoints({ file, connection }));
      return adapter;
    },
  };
}

function postgresAdapterFactory(
  url: string,
  poolMax: number,
  handle: PostgresHandle,
): SqlDriverAdapterFactory {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? undefined;
  parsed.searchParams.delete("schema");
  const inner = new PrismaPg(
    { connectionString: parsed.toString(), max: poolMax },
    schema ? { schema } : undefined,
  );
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      // The engine's hot statements and transactions run on the adapter's own pool (ADR 0049).
      handle.pool = postgresPoolOf(adapter);
      beforeDispose(adapter, () => {
        handle.pool = undefined;
      });
      return adapter;
    },
  };
}

export type CreateDbOptions = {
  /** Defaults to DATABASE_URL (unset: the embedded SQLite file). */
  url?: string;
  /** PostgreSQL pool size; defaults to DATABASE_POOL_MAX or 10. */
  poolMax?: number;
};

/** A new client of its own (tests, scripts); the caller must `$disconnect()` it. */
export function createDb({ url, poolMax }: CreateDbOptions = {}): Db {
  const resolved = resolveDatabaseUrl(url ?? process.env.DATABASE_URL);
  if (resolved.provider === "sqlite") {
    const handle: { connection?: Database } = {};
    const db = new SqlitePrismaClient({ adapter: sqliteAdapterFactory(resolved.url, handle) });
    recordDbProvider({ db, provider: "sqlite" });
    recordSqliteHandle({ db, handle });
    return db;
  }
  const max = poolMax ?? (Number(process.env.DATABASE_POOL_MAX) || 10);
  const handle: PostgresHandle = {};
  const client = new PostgresPrismaClient({ adapter: postgresAdapterFactory(resolved.url, max, handle) });
  const db = client as unknown as Db;
  const schema = new URL(resolved.url).searchParams.get("schema") ?? undefined;
  recordDbProvider({ db, provider: "postgres", schema });
  recordPostgresHandle({ db, handle });
  return db;
}

type DbGlobal = typeof globalThis & { __toolnexusDb?: Db };

/**
 * The process-wide client for DATABASE_URL. Kept on globalThis so that Next's dev-mode module
 * reloading does not open a new pool on every edit.
 */
export function getDb(): Db {
  const holder = globalThis as DbGlobal;
  holder.__toolnexusDb ??= createDb();
  return holder.__toolnexusDb;
}
