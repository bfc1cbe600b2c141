import { getDbProvider } from "./db-provider";
import type { DbClient } from "./db-types";

/**
 * A `contains` filter that ignores case on both databases (PostgreSQL also folds non-ASCII
 * letters; SQLite only ASCII): SQLite's LIKE already ignores case, PostgreSQL needs `mode`.
 */
export function containsIgnoringCase({ db, text }: { db: DbClient; text: string }): { contains: string } {
  if (getDbProvider({ db }) === "sqlite") return { contains: text };
  // The SQLite client's types, which Db uses for both, have no `mode`; PostgreSQL's client takes it.
  return { contains: text, mode: "insensitive" } as { contains: string };
}
