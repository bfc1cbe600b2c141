import type { DbClient } from "../db-types";
import type { LoggedQuery } from "./logged-db";
import type { TestProvider } from "./test-database";

/**
 * How the database plans exactly the SQL Prisma sent (`createLoggedDb` records it), one line a
 * step. On PostgreSQL sequential scans are priced out, so the plan shows whether an index can
 * serve the query at all; `ordered` prices out bitmap scans too, which give up an index's order,
 * for queries that must read a page in index order. `generic` shows the plan PostgreSQL keeps for
 * a prepared statement whatever its values.
 */
let prepared = 0;

export async function explainQuery(
  db: DbClient,
  provider: TestProvider,
  query: LoggedQuery,
  { ordered = false, generic = false }: { ordered?: boolean; generic?: boolean } = {},
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
    if (!generic) {
      const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN ${query.sql}`,
        ...query.params,
      );
      return rows.map((row) => row["QUERY PLAN"]);
    }
    // The plan a named statement runs once PostgreSQL settles on one for all values (ADR 0050),
    // which may differ from the plan for these values.
    await tx.$executeRawUnsafe("SET LOCAL plan_cache_mode = force_generic_plan");
    // A prepared statement outlives a failed transaction on its connection: a name of its own.
    const name = `explained_${++prepared}`;
    await tx.$executeRawUnsafe(`PREPARE ${name} AS ${query.sql}`);
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN EXECUTE ${name} (${query.params.map(literal).join(", ")})`,
    );
    await tx.$executeRawUnsafe(`DEALLOCATE ${name}`);
    return rows.map((row) => row["QUERY PLAN"]);
  });
}

/** A logged parameter (as JSON gave it back) as a SQL literal, typed by the prepared statement. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The plans of each statement of `queries` (transaction control left out): on PostgreSQL the
 * plan for its values and the generic plan a named statement settles on (ADR 0050), either of
 * which could bring a scan back; on SQLite its one plan.
 */
export async function plansOfStatements(
  db: DbClient,
  provider: TestProvider,
  queries: readonly LoggedQuery[],
): Promise<string[][][]> {
  const plans: string[][][] = [];
  for (const query of queries) {
    if (/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(query.sql.trim())) continue;
    const custom = await explainQuery(db, provider, query);
    plans.push(
      provider === "postgres"
        ? [custom, await explainQuery(db, provider, query, { generic: true })]
        : [custom],
    );
  }
  return plans;
}
