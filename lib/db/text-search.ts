import type { DbClient } from "./db-types";
import { getDbProvider } from "./sql/db-provider";
import { hotSqlOf, sql, sqlColumns, sqlJoin, sqlTable } from "./sql/hot-sql";

/** Tables with a free-text search, and the columns it reads. */
const SEARCHABLE = {
  Request: ["prompt"],
  User: ["name", "email"],
} as const;

type Table = keyof typeof SEARCHABLE;

/** Backslash is PostgreSQL's default LIKE escape; escaping it first keeps the others literal. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A `where` fragment matching rows whose searched columns contain `text` literally, ignoring
 * case: `%` and `_` are characters like any other, not wildcards. PostgreSQL escapes them.
 * SQLite's LIKE, as Prisma writes it, has no escape character, so a search that contains one
 * is answered with `instr()` instead (an id list); other searches keep the plain LIKE. PostgreSQL
 * cannot store a NUL character, so a search for one matches nothing rather than failing.
 */
export async function textSearchWhere({
  db,
  table,
  text,
}: {
  db: DbClient;
  table: Table;
  text: string;
}): Promise<Record<string, unknown>> {
  const columns = SEARCHABLE[table];
  if (text.includes("\u0000")) return { id: { in: [] } };
  const anyOf = (filter: (column: string) => Record<string, unknown>) =>
    columns.length === 1 ? filter(columns[0]!) : { OR: columns.map(filter) };

  if (getDbProvider({ db }) === "postgres") {
    return anyOf((column) => ({ [column]: { contains: escapeLike(text), mode: "insensitive" } }));
  }
  if (!/[%_]/.test(text)) return anyOf((column) => ({ [column]: { contains: text } }));
  // Only SQLite needs a statement of its own here: PostgreSQL's is Prisma's typed filter above.
  const test = sqlJoin(
    columns.map((column) => sql`instr(lower(${sqlColumns([column])}), lower(${text})) > 0`),
    " OR ",
  );
  const rows = await hotSqlOf(db).query<{ id: string }>(
    sql`SELECT "id" FROM ${sqlTable(table)} WHERE ${test}`,
  );
  return { id: { in: rows.map((row) => row.id) } };
}
