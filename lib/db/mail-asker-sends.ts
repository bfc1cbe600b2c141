import "server-only";
import type { DbClient } from "./db-types";
import { lockUntilTransactionEnds } from "./sql/advisory-lock";
import { getDbProvider } from "./sql/db-provider";
import { hotSqlOf, sql, sqlInt, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";
import { newRowId } from "./sql/row-id";

// The hourly limit on one person's requests mailed at once (ADR 0104): one row per request
// mailed at once, so the limit counts what went in the 60 minutes before each request, on every
// instance sharing the database, rather than in fixed hours whose edge would let twice as many
// through.

/** How far back a mailed request still counts against its asker. */
export const MAIL_ASKER_SPAN_MS = 60 * 60_000;

/**
 * Counts one of `askerId`'s requests as mailed at `at`, unless `perHour` of them already were in
 * the 60 minutes up to and including `at` (rows stamped later, by an instance whose clock runs a
 * little ahead, count too); true when counted. One conditional `INSERT` counts and writes:
 * SQLite runs it whole under its single write lock; on PostgreSQL a transaction-scoped advisory
 * lock on the person comes first, so its count sees every row committed before it. Two workers
 * racing thus never count past the limit. The person's rows older than the span are
 * deleted on the way, so the count reads at most `perHour` rows through the index.
 */
export async function takeMailAskerSend({
  db,
  askerId,
  perHour,
  at,
}: {
  db: DbClient;
  askerId: string;
  perHour: number;
  at: Date;
}): Promise<boolean> {
  if (perHour <= 0) return false;
  const since = sqlTime(new Date(at.getTime() - MAIL_ASKER_SPAN_MS));
  const insert = sql`
    INSERT INTO ${sqlTable("MailAskerSend")} ("id", "askerId", "at")
    SELECT ${newRowId()}, ${askerId}, ${sqlTime(at)}
    WHERE (SELECT count(*) FROM ${sqlTable("MailAskerSend")} WHERE "askerId" = ${askerId} AND "at" >= ${since}) < ${sqlInt(perHour)}`;
  // SQLite runs the one statement under its write lock; a transaction around it would hold that
  // lock across an await, where another connection's statement waits for it without yielding.
  const taken =
    getDbProvider({ db }) === "postgres"
      ? await hotTransaction(db, async (tx) => {
          await lockUntilTransactionEnds(tx, `mail-asker:${askerId}`);
          return hotSqlOf(tx).execute(insert);
        })
      : await hotSqlOf(db).execute(insert);
  await hotSqlOf(db).execute(
    sql`DELETE FROM ${sqlTable("MailAskerSend")} WHERE "askerId" = ${askerId} AND "at" < ${since}`,
  );
  return taken === 1;
}
