import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { DbTx } from "./db-types";
import { markPropertyOrder, restorePropertyOrder } from "./property-order";
import {
  hotSqlOf,
  inInsertBatches,
  readSqlJson,
  type SqlStatement,
  type SqlValue,
  sql,
  sqlBool,
  sqlColumns,
  sqlInt,
  sqlJson,
  sqlRows,
  sqlTable,
  sqlTime,
} from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";
import type { EnabledWebhookEndpoint } from "./webhook-outbox";

// How a thread's event rows are written at their seqs (events.ts builds them and writes the
// outboxes beside them).

export interface EventRow {
  threadId: string;
  seq: number;
  runId: string | null;
  type: string;
  payload: unknown;
  createdAt: Date;
}

export function toThreadEvent(row: EventRow): ThreadEvent {
  return {
    ...restorePropertyOrder(row.payload as object),
    type: row.type,
    threadId: row.threadId,
    seq: row.seq,
    runId: row.runId,
    createdAt: row.createdAt.toISOString(),
  } as ThreadEvent;
}

/**
 * Events as they will be stored, before their seqs are known (`seq` is 0 until the caller sets
 * it): built before the write, since an event's webhook occurrences do not depend on its seq,
 * so the write can bring back what the outboxes need with it.
 */
export function prepareEvents({
  threadId,
  runId,
  bodies,
}: {
  threadId: string;
  runId: string | null;
  bodies: EventBody[];
}): { createdAt: Date; stored: StoredEvent[]; events: ThreadEvent[] } {
  const createdAt = new Date();
  const stored = bodies.map(({ type, ...payload }): StoredEvent => {
    const ordered = markPropertyOrder(payload);
    return { id: newRowId(), type, payload: ordered, json: sqlJson(JSON.stringify(ordered)) };
  });
  const events = stored.map((row) =>
    toThreadEvent({ threadId, seq: 0, runId, type: row.type, payload: row.payload, createdAt }),
  );
  return { createdAt, stored, events };
}

/**
 * Takes the next `count` seqs of a thread's log by moving its counter on, and returns the
 * first. The write holds the thread row until the caller's transaction ends (a row lock on
 * PostgreSQL, the write lock on SQLite), so concurrent appenders to one thread queue behind
 * each other: seqs are handed out in commit order, which is what lets a subscriber treat a hole
 * as "read the rows" rather than "wait for a straggler". A rolled-back transaction gives its
 * seqs back, so the log has no holes either.
 */
export async function takeEventSeqs({
  tx,
  threadId,
  count,
}: {
  tx: DbTx;
  threadId: string;
  count: number;
}): Promise<number> {
  const [thread] = await hotSqlOf(tx).query<{ lastEventSeq: number }>(
    sql`UPDATE ${sqlTable("Thread")} SET "lastEventSeq" = "lastEventSeq" + ${sqlInt(count)}, "updatedAt" = ${sqlTime(new Date())} WHERE "id" = ${threadId} RETURNING "lastEventSeq"`,
  );
  if (!thread) throw new Error(`thread ${threadId} does not exist`);
  return Number(thread.lastEventSeq) - count + 1;
}

export type StoredEvent = { id: string; type: string; payload: object; json: SqlValue };

/**
 * Writes the rows at `first`, or at seqs taken here; returns where they start. With
 * `readWebhookEndpoints`, PostgreSQL's one statement also returns the enabled webhook endpoints
 * for the outbox (a round trip fewer); where it does not, `endpoints` is absent.
 */
export async function writeEventRows({
  tx,
  threadId,
  runId,
  first,
  stored,
  createdAt,
  readWebhookEndpoints = false,
}: {
  tx: DbTx;
  threadId: string;
  runId: string | null;
  first: number | undefined;
  stored: StoredEvent[];
  createdAt: Date;
  readWebhookEndpoints?: boolean;
}): Promise<{ start: number; endpoints?: EnabledWebhookEndpoint[] }> {
  const hot = hotSqlOf(tx);
  if (first === undefined && hot.provider === "postgres" && stored.length <= EVENTS_PER_SEQ_STATEMENT) {
    const taken = await insertEventsTakingSeqs({
      tx,
      threadId,
      runId,
      createdAt,
      stored,
      readWebhookEndpoints,
    });
    if (taken === null) throw new Error(`thread ${threadId} does not exist`);
    return taken;
  }
  const start = first ?? (await takeEventSeqs({ tx, threadId, count: stored.length }));
  const values = stored.map((row, index) => [
    row.id,
    threadId,
    sqlInt(start + index),
    runId,
    row.type,
    row.json,
    sqlTime(createdAt),
  ]);
  for (const batch of inInsertBatches(values))
    await hot.execute(insertEventRowsSql(sql`VALUES ${sqlRows(batch)}`));
  return { start };
}

/** The event table's one INSERT, of the rows `source` yields in `EVENT_ROW_COLUMNS`' order. */
function insertEventRowsSql(source: SqlStatement): SqlStatement {
  return sql`INSERT INTO ${sqlTable("Event")} (${EVENT_ROW_COLUMNS}) ${source}`;
}

const EVENT_ROW_COLUMNS = sqlColumns(["id", "threadId", "seq", "runId", "type", "payload", "createdAt"]);

/**
 * PostgreSQL: taking the next seqs of a thread's log and inserting the events at them, as two
 * CTEs of a larger statement: `"taken"` (the thread's counter) and `"inserted"` (the rows,
 * returning their seqs). With `after`, only when that earlier CTE returned a row (an answer's
 * claim): a lost claim takes no seq.
 */
export function eventRowsCtes({
  threadId,
  runId,
  createdAt,
  stored,
  after,
}: {
  threadId: string;
  runId: string | null;
  createdAt: Date;
  stored: StoredEvent[];
  after?: SqlStatement;
}): SqlStatement {
  const count = stored.length;
  const values = stored.map((row, index) => [row.id, sqlInt(index + 1), row.type, row.json]);
  const when = after ? sql` AND EXISTS (SELECT 1 FROM ${after})` : sql``;
  return sql`"taken" AS (
      UPDATE ${sqlTable("Thread")} SET "lastEventSeq" = "lastEventSeq" + ${sqlInt(count)}, "updatedAt" = ${sqlTime(createdAt)}
      WHERE "id" = ${threadId}${when} RETURNING "lastEventSeq"
    ), "inserted" AS (
      ${insertEventRowsSql(sql`
      SELECT "v"."id", ${threadId}, "taken"."lastEventSeq" - ${sqlInt(count)} + "v"."k", ${runId}, "v"."type", "v"."payload", ${sqlTime(createdAt)}
      FROM "taken", (VALUES ${sqlRows(values)}) AS "v" ("id", "k", "type", "payload")`)}
      RETURNING "seq"
    )`;
}

// On PostgreSQL every statement is a round trip, and every engine transaction that appends
// events took two for it: moving the thread's counter on, then inserting the rows at the seqs
// it handed back. One statement does both (a data-modifying CTE; SQLite has none, and its
// statements cost no round trip): the counter's row lock is taken exactly as before, and a
// missing thread inserts nothing, so the caller still throws and rolls back.

/** At most this many events go in one such statement; more take the two statements. */
const EVENTS_PER_SEQ_STATEMENT = 200;

/**
 * Takes the next `stored.length` seqs of a thread's log and inserts the events at them, in order;
 * returns the first seq, or null when the thread does not exist (nothing was written).
 * The k-th row takes the k-th seq. The endpoints are
 * read in the same snapshot a statement of their own would have had at this point.
 */
async function insertEventsTakingSeqs({
  tx,
  threadId,
  runId,
  createdAt,
  stored,
  readWebhookEndpoints,
}: {
  tx: DbTx;
  threadId: string;
  runId: string | null;
  createdAt: Date;
  stored: StoredEvent[];
  readWebhookEndpoints: boolean;
}): Promise<{ start: number; endpoints?: EnabledWebhookEndpoint[] } | null> {
  const [result] = await hotSqlOf(tx).query<{ first: number | null; endpoints: unknown }>(sql`
    WITH ${eventRowsCtes({ threadId, runId, createdAt, stored })}
    SELECT (SELECT min("seq") FROM "inserted") AS "first",
      CASE WHEN ${sqlBool(readWebhookEndpoints)} THEN (
        SELECT coalesce(json_agg(json_build_object('id', "id", 'events', "events")), '[]'::json)
        FROM ${sqlTable("WebhookEndpoint")} WHERE "disabled" = false
      ) END AS "endpoints"`);
  if (result?.first === null || result?.first === undefined) return null;
  const start = Number(result.first);
  if (!readWebhookEndpoints) return { start };
  return { start, endpoints: readSqlJson<EnabledWebhookEndpoint[]>(result.endpoints) };
}
