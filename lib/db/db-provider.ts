import "server-only";
import type { DbClient } from "./db-types";

export type DbProvider = "sqlite" | "postgres";

// Prisma hands back a proxy rather than an instance of the generated class, so `instanceof`
// cannot tell the two clients apart; createDb records each client's provider instead. The record
// is process-wide: the Next server bundles instrumentation (which creates the app's client)
// apart from the routes, and both bundles' copies of this module must see the same clients.
type ProvidersGlobal = typeof globalThis & { [PROVIDERS]?: WeakMap<object, DbProvider> };
const PROVIDERS = Symbol.for("toolnexus.dbProviders");
const holder = globalThis as ProvidersGlobal;
holder[PROVIDERS] ??= new WeakMap<object, DbProvider>();
const providers = holder[PROVIDERS];

/** Called by createDb for every client it makes. */
export function recordDbProvider({ db, provider }: { db: DbClient; provider: DbProvider }): void {
  providers.set(db, provider);
}

/**
 * Which database a client talks to. `Db` is typed as the SQLite client for both providers, so
 * the few queries whose options differ by provider (case-insensitive matching, for one) ask here.
 */
export function getDbProvider({ db }: { db: DbClient }): DbProvider {
  const provider = providers.get(db);
  if (provider === undefined) throw new Error("not a client created by createDb");
  return provider;
}
