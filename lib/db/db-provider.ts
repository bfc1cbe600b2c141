import "server-only";
import type { DbClient } from "./db-types";

export type DbProvider = "sqlite" | "postgres";

// Prisma hands back a proxy rather than an instance of the generated class, so `instanceof`
// cannot tell the two clients apart; createDb records each client's provider instead.
const providers = new WeakMap<object, DbProvider>();

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
