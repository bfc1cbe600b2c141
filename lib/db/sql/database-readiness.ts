import "server-only";
import type { DbClient } from "../db-types";
import { APPLIED_SQL, migrationFolderNames, migrationsDirOf } from "./migrate-database";

export type DatabaseReadiness = "ready" | "unreachable" | "migrations_pending";

const committed = new Map<string, string[]>();

/**
 * Whether the database answers and has every committed migration applied, in one query (the
 * migration history doubles as the reachability check). The committed list is read from disk
 * once per process: it does not change while the process runs.
 */
export async function getDatabaseReadiness({
  db,
  provider,
  root = process.cwd(),
}: {
  db: DbClient;
  provider: "sqlite" | "postgres";
  root?: string;
}): Promise<DatabaseReadiness> {
  const dir = migrationsDirOf(root, provider);
  let names = committed.get(dir);
  if (!names) {
    names = migrationFolderNames(dir);
    committed.set(dir, names);
  }
  let rows: { migration_name: string }[];
  try {
    rows = await db.$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_SQL);
  } catch (error) {
    // No history table yet means nothing was migrated; anything else is an unreachable database.
    return /_prisma_migrations/.test(String(error)) ? "migrations_pending" : "unreachable";
  }
  const applied = new Set(rows.map((row) => row.migration_name));
  return names.every((name) => applied.has(name)) ? "ready" : "migrations_pending";
}
