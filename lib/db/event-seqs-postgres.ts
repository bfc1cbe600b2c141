import "server-only";
import type { DbTx } from "./db-types";
import { hotSqlOf, type SqlValue, sql, sqlInt, sqlRows, sqlTable, sqlTime } from "./hot-sql";

// On PostgreSQL every statement is a round trip, and every engine transaction that appends
// events took two for it: moving the thread's counter on, then inserting the rows at the seqs
// it handed back. One statement does both (a data-modifying CTE; SQLite has none, and its
// statements cost no round trip): the counter's row lock is taken exactly as before, and a
// missing thread inserts nothing, so the caller still throws and rolls back.

/** At most this many events go in one such statement; more take the two statements. */
export const EVENTS_PER_SEQ_STATEMENT = 200;

/**
 * Takes the next `rows.length` seqs of a thread's log and inserts the events at them, in order;
 * returns the first seq, or null when the thread does not exist (nothing was written).
 * Each row is [id, type, payload (sqlJson)], the k-th taking the k-th seq.
 */
export async function insertEventsTakingSeqs({
  tx,
  threadId,
  runId,
  createdAt,
  rows,
}: {
  tx: DbTx;
  threadId: string;
  runId: string | null;
  createdAt: Date;
  rows: [id: string, type: string, payload: SqlValue][];
}): Promise<number | null> {
  const count = rows.length;
  const values = rows.map(([id, type, payload], index) => [id, sqlInt(index + 1), type, payload]);
  const inserted = await hotSqlOf(tx).query<{ seq: number }>(sql`
    WITH "taken" AS (
      UPDATE ${sqlTable("Thread")} SET "lastEventSeq" = "lastEventSeq" + ${sqlInt(count)}, "updatedAt" = ${sqlTime(createdAt)}
      WHERE "id" = ${threadId} RETURNING "lastEventSeq"
    )
    INSERT INTO ${sqlTable("Event")} ("id", "threadId", "seq", "runId", "type", "payload", "createdAt")
    SELECT "v"."id", ${threadId}, "taken"."lastEventSeq" - ${sqlInt(count)} + "v"."k", ${runId}, "v"."type", "v"."payload", ${sqlTime(createdAt)}
    FROM "taken", (VALUES ${sqlRows(values)}) AS "v" ("id", "k", "type", "payload")
    RETURNING "seq"`);
  if (inserted.length === 0) return null;
  return Math.min(...inserted.map((row) => Number(row.seq)));
}
