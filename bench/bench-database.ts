import { createDb, type Db } from "@/lib/db/sql/client";
import { migrateDatabase } from "@/lib/db/sql/migrate-database";
import { createTempDatabase } from "@/lib/db/sql/temp-database";

export type BenchProvider = "sqlite" | "postgres";

export interface BenchDatabase {
  provider: BenchProvider;
  url: string;
  db: Db;
  /** Disconnects and removes the database, unless the caller keeps a SQLite file for a server. */
  drop(): Promise<void>;
}

/**
 * A fresh database migrated the way a server migrates at start-up, so figures never depend
 * on what an earlier run left behind. PostgreSQL lives on the local server (127.0.0.1:5432).
 */
export async function openBenchDatabase(provider: BenchProvider): Promise<BenchDatabase> {
  const temp = await createTempDatabase({ provider });
  await migrateDatabase({ url: temp.url });
  const db = createDb({ url: temp.url });
  return {
    provider,
    url: temp.url,
    db,
    async drop() {
      await db.$disconnect();
      await temp.drop();
    },
  };
}
