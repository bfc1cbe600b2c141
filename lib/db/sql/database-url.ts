import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgres";

export type ResolvedDatabaseUrl = { provider: DatabaseProvider; url: string };

/** Where the embedded database lives when DATABASE_URL is not set (relative to the working directory). */
export const DEFAULT_SQLITE_URL = "file:./data/toolnexus.db";

/**
 * Normalizes DATABASE_URL: unset or empty means the embedded SQLite file; a relative `file:`
 * path is made absolute against the working directory, so the CLI (which runs the schema engine
 * elsewhere) and the app always open the same file.
 */
export function resolveDatabaseUrl(raw: string | undefined): ResolvedDatabaseUrl {
  const url = raw?.trim() || DEFAULT_SQLITE_URL;
  if (/^postgres(ql)?:\/\//i.test(url)) return { provider: "postgres", url };
  if (/^file:/i.test(url)) {
    const [location = "", query] = url.slice("file:".length).split("?", 2);
    if (location === ":memory:") return { provider: "sqlite", url };
    // Not a bundled asset: the database lives wherever the deployment says.
    const absolute = path.resolve(/* turbopackIgnore: true */ location);
    return { provider: "sqlite", url: `file:${absolute}${query ? `?${query}` : ""}` };
  }
  throw new Error("DATABASE_URL must be a file: URL (SQLite) or a postgres:// / postgresql:// URL");
}

/** Filesystem path of a SQLite `file:` URL (query string dropped). */
export function sqliteFileOf(url: string): string {
  return url.replace(/^file:/i, "").split("?", 1)[0] ?? "";
}
