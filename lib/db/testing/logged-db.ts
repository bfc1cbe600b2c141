import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/postgres/client";
import { PrismaClient as SqlitePrismaClient } from "@/lib/generated/sqlite/client";
import type { Db } from "../sql/client";
import { sqliteFileOf } from "../sql/database-url";
import { recordDbProvider } from "../sql/db-provider";

export interface LoggedQuery {
  sql: string;
  params: unknown[];
}

/**
 * A client that records the SQL Prisma sends, so a test can ask the database how it plans
 * exactly those statements (not a hand-written copy that could drift from them), or count
 * them. Its provider is recorded as `createDb` records it, so the engine can run on it.
 */
export function createLoggedDb({ url, provider }: { url: string; provider: "sqlite" | "postgres" }): {
  db: Db;
  queries: LoggedQuery[];
} {
  const queries: LoggedQuery[] = [];
  const log = [{ level: "query" as const, emit: "event" as const }];
  const record = (event: { query: string; params: string }) => {
    queries.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] });
  };
  if (provider === "sqlite") {
    const db = new SqlitePrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqliteFileOf(url) }), log });
    db.$on("query", record);
    recordDbProvider({ db, provider });
    return { db, queries };
  }
  const db = new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }), log });
  db.$on("query", record);
  recordDbProvider({ db: db as unknown as Db, provider });
  return { db: db as unknown as Db, queries };
}
