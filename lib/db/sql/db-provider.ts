import "server-only";
import type { DbClient, DbTx } from "../db-types";
import { baseClientOf } from "./prisma-internals";

export type DbProvider = "sqlite" | "postgres";

type DbDialect = { provider: DbProvider; schema: string | undefined };

/**
 * A process-wide record kept per client (under `baseClientOf`). Process-wide because the Next
 * server bundles instrumentation (which creates the app's client) apart from the routes, and
 * both bundles' copies of a module must see the same clients.
 */
export function clientRecords<T>(name: string): WeakMap<object, T> {
  const holder = globalThis as typeof globalThis & Record<symbol, WeakMap<object, T> | undefined>;
  const key = Symbol.for(`toolnexus.${name}`);
  holder[key] ??= new WeakMap<object, T>();
  return holder[key];
}

// Prisma hands back a proxy rather than an instance of the generated class, so `instanceof`
// cannot tell the two clients apart; createDb records each client's provider instead.
const providers = clientRecords<DbDialect>("dbProviders");

/**
 * Called by createDb for every client it makes. `schema` is the PostgreSQL schema its Prisma
 * adapter was given (`?schema=` of the URL), which raw statements must name as Prisma does.
 */
export function recordDbProvider({
  db,
  provider,
  schema,
}: {
  db: DbClient;
  provider: DbProvider;
  schema?: string | undefined;
}): void {
  providers.set(baseClientOf(db), { provider, schema });
}

function dialectOf(db: DbClient | DbTx): DbDialect {
  const dialect = providers.get(baseClientOf(db));
  if (dialect === undefined) throw new Error("not a client created by createDb");
  return dialect;
}

/**
 * Which database a client talks to. `Db` is typed as the SQLite client for both providers, so
 * the few queries whose options differ by provider (case-insensitive matching, for one) ask here.
 */
export function getDbProvider({ db }: { db: DbClient | DbTx }): DbProvider {
  return dialectOf(db).provider;
}

/**
 * How a raw statement names `table` for this client: on PostgreSQL qualified with the schema
 * Prisma itself uses (the URL's, else "public", whatever the connection's search_path says).
 * Table names come from the code, never from input.
 */
export function getRawTableName({ db, table }: { db: DbClient | DbTx; table: string }): string {
  const { provider, schema } = dialectOf(db);
  return provider === "sqlite" ? `"${table}"` : `"${(schema ?? "public").replaceAll('"', '""')}"."${table}"`;
}
