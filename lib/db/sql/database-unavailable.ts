import { AppError } from "@/lib/errors";

// Whether an error means "the database is briefly away" — restarting, failing over, reset, busy
// — rather than "this statement is wrong". Callers treat the first as a pause: the engine lets
// the run go for recovery to take once the database is back, and people are told to try again
// shortly (503). Anything else keeps its own meaning. ADR 0060 says why these and not others.

/** PostgreSQL SQLSTATEs: connection exceptions (08…), shutdown or recovery, write conflicts, no slots. */
const POSTGRES_CODES = new Set([
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01", // admin_shutdown: the server is going down (a restart, a failover)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: still starting up, or in recovery
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "53300", // too_many_connections
]);

/** Prisma's own codes for an unreachable, timed-out or closed server and an exhausted pool. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2034", "P2037"]);

/** What Prisma's driver adapters call the same conditions (`DriverAdapterError.cause.kind`). */
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout", // also SQLite's SQLITE_BUSY past the busy timeout
  "TransactionWriteConflict",
  "TooManyConnections",
]);

const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTCONN",
  "EAI_AGAIN",
]);

// node-postgres reports a dropped socket and a full pool by message only.
const PG_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
];

function codeMatches(code: unknown): boolean {
  if (typeof code !== "string") return false;
  // better-sqlite3's codes carry the extended kind: SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE…
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return true;
  return POSTGRES_CODES.has(code) || PRISMA_CODES.has(code) || SOCKET_CODES.has(code);
}

function oneMatches(value: Record<string, unknown>): boolean {
  if (codeMatches(value.code)) return true;
  if (typeof value.kind === "string" && ADAPTER_KINDS.has(value.kind)) return true;
  // An adapter's "postgres" kind keeps the server's SQLSTATE as `code` (checked above) or `originalCode`.
  if (codeMatches(value.originalCode)) return true;
  const message = value.message;
  return typeof message === "string" && PG_MESSAGES.some((known) => message.includes(known));
}

/**
 * True when `error` (or anything it wraps: `cause`, Prisma's `meta.driverAdapterError`, an
 * AggregateError's `errors`) says the database is briefly unavailable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const value = queue.shift();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (record instanceof AppError) continue;
    if (oneMatches(record)) return true;
    queue.push(record.cause);
    const meta = record.meta as Record<string, unknown> | undefined;
    if (meta && typeof meta === "object") queue.push(meta.driverAdapterError);
    if (Array.isArray(record.errors)) queue.push(...record.errors);
  }
  return false;
}

/**
 * The error as people may see it: `unavailable:database` (503) when the database is briefly
 * away, else the error itself. Every responder of the app (pages' actions, routes, the API,
 * live streams) passes what it caught through this before turning it into a reply.
 */
export function asUnavailableError(error: unknown): unknown {
  if (error instanceof AppError || !isDatabaseUnavailable(error)) return error;
  return new AppError("unavailable:database", { cause: error });
}
