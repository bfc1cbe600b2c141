import "server-only";
import type { DbTx } from "../db-types";
import { getDbProvider } from "./db-provider";
import { hotSqlOf, sql } from "./hot-sql";

/**
 * Serializes the transactions that count before they write under `key` (a person's tokens, the
 * admins): on PostgreSQL a lock held until `tx` ends, which Prisma cannot express; on SQLite the
 * one writer already does it, so nothing is sent.
 */
export async function lockUntilTransactionEnds(tx: DbTx, key: string): Promise<void> {
  if (getDbProvider({ db: tx }) !== "postgres") return;
  await hotSqlOf(tx).execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`toolnexus.${key}`}))`);
}
