import type { DbClient } from "../db-types";
import type { LoggedQuery } from "./logged-db";
import type { TestProvider } from "./test-database";

/**
 * How the database plans exactly the SQL Prisma sent (`createLoggedDb` records it), one line a
 * step. On PostgreSQL sequential scans are priced out, so the plan shows whether an index can
 * serve the query at all; `ordered` prices out bitmap scans too, which give up an index's order,
 * for queries that must read a page in index order.
 */
export async function explainQuery(
  db: DbClient,
  provider: TestProvider,
  query: LoggedQuery,
  { ordered = false }: { ordered?: boolean } = {},
): Promise<string[]> {
  if (provider === "sqlite") {
    const rows = await db.$queryRawUnsafe<{ detail: string }[]>(
      `EXPLAIN QUERY PLAN ${query.sql}`,
      ...query.params,
    );
    return rows.map((row) => row.detail);
  }
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    if (ordered) await tx.$executeRawUnsafe("SET LOCAL enable_bitmapscan = off");
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN ${query.sql}`,
      ...query.params,
    );
    return rows.map((row) => row["QUERY PLAN"]);
  });
}
