import path from "node:path";
import type { DbClient } from "@/lib/db/db-types";
import { createDb } from "@/lib/db/sql/client";
import { migrateDatabase } from "@/lib/db/sql/migrate-database";
import { createTempDatabase } from "@/lib/db/sql/temp-database";

export type TestProvider = "sqlite" | "postgres";

const root = path.resolve(import.meta.dirname, "../../..");

export interface TestDatabase {
  provider: TestProvider;
  url: string;
  db: DbClient;
  /** Another client on the same database, as a second process would have. */
  connect(): DbClient;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own (see createTempDatabase), migrated the way the app migrates its
 * own (migrateDatabase), with clients to it.
 */
export async function createTestDatabase(provider: TestProvider): Promise<TestDatabase> {
  const temp = await createTempDatabase({ provider });
  try {
    await migrateDatabase({ url: temp.url, root });
  } catch (error) {
    await temp.drop();
    throw error;
  }
  const clients: DbClient[] = [];
  const connect = () => {
    const client = createDb({ url: temp.url, poolMax: 20 });
    clients.push(client);
    return client;
  };
  return {
    provider,
    url: temp.url,
    db: connect(),
    connect,
    async drop() {
      await Promise.all(clients.map((client) => client.$disconnect()));
      await temp.drop();
    },
  };
}
