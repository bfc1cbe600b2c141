import "server-only";

// The same broken unique index reaches lib/db in three shapes: Prisma's typed client (P2002, on
// both databases), better-sqlite3 under the SQLite hot path (ADR 0047) and node-postgres under
// the PostgreSQL one (ADR 0049). A function that turns a lost race into an outcome must know all
// three, or moving its write to hot SQL would turn that outcome into a 500.
const SQLITE_UNIQUE = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]);
const POSTGRES_UNIQUE = "23505";

/** True when `error` is a unique (or primary key) violation, whichever way the write was sent. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (code === "P2002" || code === POSTGRES_UNIQUE) return true;
  return typeof code === "string" && SQLITE_UNIQUE.has(code);
}
