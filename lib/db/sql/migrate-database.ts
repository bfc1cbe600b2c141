import "server-only";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { type ResolvedDatabaseUrl, resolveDatabaseUrl, sqliteFileOf } from "./database-url";

export type MigrateDatabaseOptions = {
  /** Defaults to DATABASE_URL (unset: the embedded SQLite file). */
  url?: string;
  /** Project root holding prisma/; defaults to the working directory. */
  root?: string;
  /**
   * Applies only the migrations whose folder name sorts before this one, leaving the database as
   * it was before that migration (a migration's own test seeds such a database, then migrates).
   */
  before?: string;
};

export type MigrateDatabaseResult = { applied: string[] };

type MigrationDirectory = {
  path: string;
  migrationFile: { path: string; content: { tag: "ok"; value: string } | { tag: "error"; value: string } };
};

type MigrationsList = {
  baseDir: string;
  lockfile: { path: string; content: string | null };
  shadowDbInitScript: string;
  migrationDirectories: MigrationDirectory[];
};

type EngineSessionModule = {
  EngineSession: new (options: {
    datasource: { url: string };
  }) => {
    call(method: "applyMigrations", params: unknown): Promise<{ appliedMigrationNames: string[] }>;
    close(): Promise<void>;
  };
};

type DatabaseAdminModule = {
  canConnect(url: string): Promise<void>;
  createDatabase(url: string): Promise<string>;
};

export function migrationsDirOf(root: string, provider: ResolvedDatabaseUrl["provider"]): string {
  return path.join(root, provider === "postgres" ? "prisma/postgres/migrations" : "prisma/migrations");
}

export function migrationFolderNames(dir: string, before?: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && (before === undefined || entry.name < before))
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
}

// The same listing the Prisma CLI sends to the schema engine for `migrate deploy`.
function readMigrationsList(dir: string, names: string[]): MigrationsList {
  const lockPath = path.join(dir, "migration_lock.toml");
  return {
    baseDir: dir,
    lockfile: {
      path: "migration_lock.toml",
      content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: names.map((name) => {
      const file = path.join(dir, name, "migration.sql");
      const content = existsSync(file)
        ? ({ tag: "ok", value: readFileSync(file, "utf8") } as const)
        : ({ tag: "error", value: `${file} does not exist` } as const);
      return { path: name, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

export const APPLIED_SQL =
  "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

/** Names of the migrations recorded as applied, or null when the database has no history yet. */
async function appliedMigrationNames(resolved: ResolvedDatabaseUrl): Promise<Set<string> | null> {
  if (resolved.provider === "sqlite") {
    const file = sqliteFileOf(resolved.url);
    if (file === ":memory:" || !existsSync(file)) return null;
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
    try {
      const rows = db.prepare(APPLIED_SQL).all() as { migration_name: string }[];
      return new Set(rows.map((row) => row.migration_name));
    } catch {
      return null;
    } finally {
      db.close();
    }
  }
  const url = new URL(resolved.url);
  const schema = url.searchParams.get("schema");
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    const table = schema ? `"${schema.replaceAll('"', '""')}"._prisma_migrations` : "_prisma_migrations";
    const { rows } = await client.query<{ migration_name: string }>(
      APPLIED_SQL.replace("_prisma_migrations", table),
    );
    return new Set(rows.map((row) => row.migration_name));
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

// Loaded at run time from the project tree: the engine bridge is plain Node code that must not be
// pulled into a Next.js bundle (it instantiates WebAssembly from node_modules on disk).
function importEngineModule<T>(root: string, file: string): Promise<T> {
  const href = pathToFileURL(path.join(root, "prisma/engine", file)).href;
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ href) as Promise<T>;
}

/**
 * Applies the committed migrations of the configured provider (what `prisma migrate deploy`
 * does, through the same engine), creating the database first when needed. When every
 * migration is already recorded it returns after one cheap query, without loading the engine.
 */
export async function migrateDatabase({
  url,
  root = process.cwd(),
  before,
}: MigrateDatabaseOptions = {}): Promise<MigrateDatabaseResult> {
  const resolved = resolveDatabaseUrl(url ?? process.env.DATABASE_URL);
  const dir = migrationsDirOf(root, resolved.provider);
  const wanted = migrationFolderNames(dir, before);
  const applied = await appliedMigrationNames(resolved);
  if (applied && wanted.every((name) => applied.has(name))) return { applied: [] };

  const admin = await importEngineModule<DatabaseAdminModule>(root, "database-admin.mjs");
  try {
    await admin.canConnect(resolved.url);
  } catch (error) {
    if ((error as { code?: string }).code !== "P1003") throw error;
    await admin.createDatabase(resolved.url);
  }
  const { EngineSession } = await importEngineModule<EngineSessionModule>(root, "engine-session.mjs");
  const session = new EngineSession({ datasource: { url: resolved.url } });
  try {
    const result = await session.call("applyMigrations", {
      migrationsList: readMigrationsList(dir, wanted),
      filters: { externalTables: [], externalEnums: [] },
    });
    return { applied: result.appliedMigrationNames };
  } catch (error) {
    // The engine appends a Rust span trace to its messages; keep the readable head.
    const message = String((error as Error)?.message ?? error).split(/\n\s+0: /)[0];
    throw new Error(`Migrating the database failed: ${message}`, { cause: error });
  } finally {
    await session.close();
  }
}
