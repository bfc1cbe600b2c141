import "server-only";
import { randomUUID } from "node:crypto";
import type { ThreadEvent } from "@/lib/domain/events";
import {
  isWebhookEventType,
  WEBHOOK_TEST_TYPE,
  type WebhookOccurrence,
  webhookOccurrencesOf,
} from "@/lib/domain/webhooks";
import type { DbTx } from "./db-types";
import {
  hotSqlOf,
  inInsertBatches,
  readSqlJson,
  type SqlStatement,
  type SqlValue,
  sql,
  sqlBool,
  sqlInt,
  sqlList,
  sqlRows,
  sqlTable,
  sqlTime,
} from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";

/** The Standard Webhooks message id: unique, and the same on every attempt and replay. */
function newMessageId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

function subscribedTypes(events: unknown): string[] {
  return Array.isArray(events) ? events.filter(isWebhookEventType) : [];
}

/**
 * The webhook outbox: writes a message and one delivery per subscribed endpoint for each
 * occurrence, inside the caller's transaction, so a message exists exactly when its event
 * does (a crash after the commit loses none, a rollback sends none). The body is fixed here;
 * attempts only sign it. An occurrence already written (a run parking again with the same
 * open request) adds nothing. Exported for writers of events outside a thread's log.
 */
export async function enqueueWebhookOccurrences({
  tx,
  occurrences,
  at,
  endpoints: known,
}: {
  tx: DbTx;
  occurrences: WebhookOccurrence[];
  at: Date;
  /** The enabled endpoints, when the caller's own statement read them already (event-rows.ts). */
  endpoints?: EnabledWebhookEndpoint[];
}): Promise<void> {
  if (occurrences.length === 0) return;
  const endpoints = known ?? (await listEnabledWebhookEndpoints(tx));
  const wanted = occurrences.filter((occurrence) =>
    endpoints.some((endpoint) => subscribedTypes(endpoint.events).includes(occurrence.type)),
  );
  if (wanted.length === 0) return;
  const hot = hotSqlOf(tx);
  const stored = await hot.query<{ eventKey: string }>(
    sql`SELECT "eventKey" FROM ${sqlTable("WebhookMessage")} WHERE "eventKey" IN (${sqlList(wanted.map((occurrence) => occurrence.eventKey))})`,
  );
  const seen = new Set(stored.map((row) => row.eventKey));
  const createdAt = sqlTime(at);
  const now = sqlTime(new Date());
  const messages: SqlValue[][] = [];
  const deliveries: SqlValue[][] = [];
  for (const occurrence of wanted) {
    if (seen.has(occurrence.eventKey)) continue;
    seen.add(occurrence.eventKey);
    const { id, body } = webhookMessageOf(occurrence, at);
    messages.push([id, occurrence.eventKey, occurrence.type, body, createdAt]);
    for (const endpoint of endpoints) {
      if (!subscribedTypes(endpoint.events).includes(occurrence.type)) continue;
      deliveries.push([newRowId(), id, endpoint.id, "pending", sqlInt(0), createdAt, now, now]);
    }
  }
  // The columns Prisma would fill in itself (ids, timestamps) are written here.
  for (const batch of inInsertBatches(messages))
    await hot.execute(insertMessagesSql(sql`VALUES ${sqlRows(batch)}`));
  for (const batch of inInsertBatches(deliveries))
    await hot.execute(insertDeliveriesSql(sql`VALUES ${sqlRows(batch)}`));
}

/** The message table's one INSERT, of the rows `source` yields; `tail` (a conflict rule, a RETURNING) after them. */
function insertMessagesSql(source: SqlStatement, tail = sql``): SqlStatement {
  return sql`INSERT INTO ${sqlTable("WebhookMessage")} ("id", "eventKey", "type", "body", "createdAt") ${source}${tail}`;
}

/** The delivery table's one INSERT, of the rows `source` yields. */
function insertDeliveriesSql(source: SqlStatement): SqlStatement {
  return sql`INSERT INTO ${sqlTable("WebhookDelivery")} ("id", "messageId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt") ${source}`;
}

/** Deliveries one statement can write for its one webhook message; more take the transaction. */
const DELIVERIES_PER_STATEMENT = 8;

/**
 * PostgreSQL: the outbox of events appended by a larger statement (`eventRowsCtes`), as its
 * CTEs: `before` the claim the statement depends on (the subscribed endpoints, and `guard`,
 * which the claim must also meet so that a statement that could not write every delivery
 * writes nothing), `after` the event's `"inserted"`. Null when the events stand for more than
 * one occurrence (then they are appended in a transaction). `crowded` reads the statement's
 * `"subscribers"` column: the claim took nothing because too many endpoints subscribe.
 */
export function composeWebhookOutbox(events: readonly ThreadEvent[]): {
  before: SqlStatement[];
  guard: SqlStatement;
  after: SqlStatement[];
  columns: SqlStatement;
  crowded(row: Record<string, unknown>): boolean;
} | null {
  const occurrences = events.flatMap(webhookOccurrencesOf);
  if (occurrences.length > 1) return null;
  const [occurrence] = occurrences;
  if (!occurrence)
    return {
      before: [],
      guard: sql`true`,
      after: [],
      columns: sql`0 AS "subscribers"`,
      crowded: () => false,
    };
  const at = new Date(events[0]!.createdAt);
  const message = webhookMessageOf(occurrence, at);
  const written = sqlTime(at);
  const now = sqlTime(new Date());
  const ids = Array.from({ length: DELIVERIES_PER_STATEMENT }, (_, k) => [newRowId(), sqlInt(k + 1)]);
  return {
    before: [
      sql`"subscribed" AS (
      SELECT "id", row_number() OVER (ORDER BY "id") AS "k" FROM ${sqlTable("WebhookEndpoint")}
      WHERE "disabled" = false AND "events" @> jsonb_build_array(${occurrence.type}::text))`,
    ],
    guard: sql`(SELECT count(*) FROM "subscribed") <= ${sqlInt(DELIVERIES_PER_STATEMENT)}`,
    after: [
      sql`"message" AS (${insertMessagesSql(
        sql`SELECT ${message.id}, ${occurrence.eventKey}, ${occurrence.type}, ${message.body}, ${written}
      FROM "inserted" WHERE EXISTS (SELECT 1 FROM "subscribed")`,
        sql` ON CONFLICT ("eventKey") DO NOTHING RETURNING "id"`,
      )})`,
      sql`"delivery" AS (${insertDeliveriesSql(sql`
      SELECT "ids"."id", "message"."id", "subscribed"."id", 'pending', 0, ${written}, ${now}, ${now}
      FROM "message", "subscribed" JOIN (VALUES ${sqlRows(ids)}) AS "ids" ("id", "k") ON "ids"."k" = "subscribed"."k"`)})`,
    ],
    columns: sql`(SELECT count(*)::int4 FROM "subscribed") AS "subscribers"`,
    crowded: (row) => Number(row.subscribers) > DELIVERIES_PER_STATEMENT,
  };
}

/**
 * Queues a test event for one endpoint, whatever it subscribes to, inside the caller's
 * transaction: one message and one delivery, sent and retried like any other.
 */
export async function enqueueWebhookTestMessage({
  tx,
  endpointId,
  data,
  at,
}: {
  tx: DbTx;
  endpointId: string;
  data: Record<string, unknown>;
  at: Date;
}): Promise<{ messageId: string }> {
  const { id, body } = webhookMessageOf({ type: WEBHOOK_TEST_TYPE, data }, at);
  const created = sqlTime(at);
  const hot = hotSqlOf(tx);
  await hot.execute(
    insertMessagesSql(sql`VALUES ${sqlRows([[id, `test:${id}`, WEBHOOK_TEST_TYPE, body, created]])}`),
  );
  await hot.execute(
    insertDeliveriesSql(
      sql`VALUES ${sqlRows([[newRowId(), id, endpointId, "pending", sqlInt(0), created, created, created]])}`,
    ),
  );
  return { messageId: id };
}

/** A message's id and its body, fixed once: every attempt and replay sends these bytes. */
export function webhookMessageOf(
  occurrence:
    | Pick<WebhookOccurrence, "type" | "data">
    | { type: typeof WEBHOOK_TEST_TYPE; data: Record<string, unknown> },
  at: Date,
): { id: string; body: string } {
  const body = JSON.stringify({ type: occurrence.type, timestamp: at.toISOString(), data: occurrence.data });
  return { id: newMessageId(), body };
}

/** The outbox entries a batch of freshly appended events stands for (most stand for none). */
export async function enqueueWebhooksForEvents({
  tx,
  events,
  endpoints,
}: {
  tx: DbTx;
  events: ThreadEvent[];
  endpoints?: EnabledWebhookEndpoint[];
}) {
  const occurrences = events.flatMap(webhookOccurrencesOf);
  if (occurrences.length === 0) return;
  await enqueueWebhookOccurrences({ tx, occurrences, at: new Date(events[0]!.createdAt), endpoints });
}

export type EnabledWebhookEndpoint = { id: string; events: unknown };

// Asked once per batch of events that holds a webhook type, so it is one of the hot statements.
async function listEnabledWebhookEndpoints(tx: DbTx): Promise<EnabledWebhookEndpoint[]> {
  const rows = await hotSqlOf(tx).query<{ id: string; events: unknown }>(
    sql`SELECT "id", "events" FROM ${sqlTable("WebhookEndpoint")} WHERE "disabled" = ${sqlBool(false)}`,
  );
  return rows.map((row) => ({ id: row.id, events: readSqlJson<unknown>(row.events) }));
}
