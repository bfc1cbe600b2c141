import "server-only";
import type { DbProvider } from "./db-provider";

// How the hot statements are written: text and values kept apart, values typed where the two
// databases store them differently, rendered for one provider (hot-sql.ts runs them).

/** A value of a statement; what is not a plain string, number or null says how to store it. */
export type SqlValue = string | number | null | Typed;

class Typed {
  constructor(
    readonly kind: "json" | "jsonText" | "time" | "int" | "bool",
    readonly value: string | number | Date | boolean | null,
  ) {}
}

// Typed, so that PostgreSQL is told each value's type (a null too) rather than guessing it.
/** JSON text for a Json column (jsonb on PostgreSQL). */
export const sqlJson = (text: string | null): SqlValue => new Typed("json", text);
/** JSON text for a Json column that keeps it as written (`@db.Json`: json on PostgreSQL). */
export const sqlJsonText = (text: string | null): SqlValue => new Typed("jsonText", text);
/** A DateTime column's value, stored as Prisma stores it on each database. */
export const sqlTime = (at: Date | null): SqlValue => new Typed("time", at);
export const sqlInt = (value: number | null): SqlValue => new Typed("int", value);
export const sqlBool = (value: boolean): SqlValue => new Typed("bool", value);

class Table {
  constructor(readonly name: string) {}
}
/** A table of the schema, named as Prisma names it on this client (schema-qualified on PostgreSQL). */
export const sqlTable = (name: string) => new Table(name);

class Columns {
  constructor(readonly names: readonly string[]) {}
}
/** `"a", "b"`: a fixed list of the schema's column names, for a RETURNING or SELECT list. */
export const sqlColumns = (names: readonly string[]) => new Columns(names);

class List {
  constructor(readonly values: readonly SqlValue[]) {}
}
/** `$1, $2, …` for an `IN (…)`; never empty (`IN ()` is no statement on PostgreSQL). */
export function sqlList(values: readonly SqlValue[]): List {
  if (values.length === 0) throw new Error("sqlList needs at least one value");
  return new List(values);
}

class Rows {
  constructor(readonly rows: readonly (readonly SqlValue[])[]) {}
}
/** `(…), (…)` for a multi-row INSERT. */
export const sqlRows = (rows: readonly (readonly SqlValue[])[]) => new Rows(rows);

/**
 * What an INSERT writes into `columns`: `rows`, or, with `after` (a CTE of the same PostgreSQL
 * statement), those rows once for each row `after` returns, so a write that depends on a claim
 * writes nothing when the claim took nothing. Each table's INSERT is written once and takes
 * either form.
 */
export function sqlInsertRows(
  columns: Columns,
  rows: readonly (readonly SqlValue[])[],
  after?: SqlStatement,
): SqlStatement {
  return after
    ? sql`(${columns}) SELECT "v".* FROM ${after}, (VALUES ${sqlRows(rows)}) AS "v" (${columns})`
    : sql`(${columns}) VALUES ${sqlRows(rows)}`;
}

/**
 * `rows` cut into lots for one multi-row INSERT each, well inside either database's limit on a
 * statement's values (32,766 on SQLite, 65,535 on PostgreSQL), as Prisma's createMany cuts them.
 */
export function inInsertBatches<T>(rows: readonly T[], size = 200): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < rows.length; start += size) batches.push(rows.slice(start, start + size));
  return batches;
}

type SqlPart = SqlValue | Table | Columns | List | Rows | SqlStatement;

/** Text and values kept apart; a statement may hold others, rendered in place with their values. */
export class SqlStatement {
  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly SqlPart[],
  ) {}
}

/** A statement with its values apart from its text: `sql\`… WHERE "id" = ${id}\``. */
export function sql(strings: TemplateStringsArray, ...parts: SqlPart[]): SqlStatement {
  return new SqlStatement(strings, parts);
}

/** `statements` one after another with `separator` between them (none may be empty). */
export function sqlJoin(
  statements: readonly SqlStatement[],
  separator: ", " | " AND " | " OR ",
): SqlStatement {
  if (statements.length === 0) throw new Error("sqlJoin needs at least one statement");
  return new SqlStatement(["", ...statements.slice(1).map(() => separator), ""], statements);
}

interface Rendered {
  text: string;
  values: unknown[];
}

export function renderStatement(
  statement: SqlStatement,
  provider: DbProvider,
  tableName: (table: string) => string,
): Rendered {
  const values: unknown[] = [];
  const placeholder = (value: SqlValue): string => {
    if (!(value instanceof Typed)) {
      values.push(value);
      return provider === "sqlite" ? "?" : `$${values.length}`;
    }
    const { kind, value: raw } = value;
    if (raw === null) values.push(null);
    else if (provider === "sqlite") {
      // Prisma's SQLite adapter writes DateTime as ISO 8601 text with "+00:00", Boolean as 0/1.
      if (kind === "time") values.push((raw as Date).toISOString().replace("Z", "+00:00"));
      else if (kind === "bool") values.push(raw ? 1 : 0);
      else values.push(raw);
    }
    // timestamp(3) keeps UTC wall time, as Prisma writes it; the zone in the text is ignored.
    else if (kind === "time") values.push((raw as Date).toISOString());
    else values.push(raw);
    if (provider === "sqlite") return "?";
    const cast = { json: "jsonb", jsonText: "json", time: "timestamp(3)", int: "int4", bool: "boolean" }[
      kind
    ];
    return `$${values.length}::${cast}`;
  };
  let text = "";
  const append = (inner: SqlStatement) => {
    text += inner.strings[0]!;
    inner.parts.forEach((part, index) => {
      if (part instanceof SqlStatement) append(part);
      else if (part instanceof Table) text += tableName(part.name);
      else if (part instanceof Columns) text += part.names.map((name) => `"${name}"`).join(", ");
      else if (part instanceof List) text += part.values.map(placeholder).join(", ");
      else if (part instanceof Rows)
        text += part.rows.map((row) => `(${row.map(placeholder).join(", ")})`).join(", ");
      else text += placeholder(part);
      text += inner.strings[index + 1]!;
    });
  };
  append(statement);
  return { text, values };
}
