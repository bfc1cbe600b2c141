import "server-only";
import { randomUUID } from "node:crypto";
import type { ThreadEvent } from "@/lib/domain/events";
import { isWebhookEventType, type WebhookOccurrence, webhookOccurrencesOf } from "@/lib/domain/webhooks";
import type { DbTx } from "./db-types";
import { hotSqlOf, readSqlJson, sql, sqlBool, sqlTable } from "./hot-sql";

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
}: {
  tx: DbTx;
  occurrences: WebhookOccurrence[];
  at: Date;
}): Promise<void> {
  if (occurrences.length === 0) return;
  // Asked once per batch of events that holds a webhook type, so it is one of the hot statements.
  const endpoints = (
    await hotSqlOf(tx).query<{ id: string; events: unknown }>(
      sql`SELECT "id", "events" FROM ${sqlTable("WebhookEndpoint")} WHERE "disabled" = ${sqlBool(false)}`,
    )
  ).map((row) => ({ id: row.id, events: readSqlJson<unknown>(row.events) }));
  const wanted = occurrences.filter((occurrence) =>
    endpoints.some((endpoint) => subscribedTypes(endpoint.events).includes(occurrence.type)),
  );
  if (wanted.length === 0) return;
  const known = await tx.webhookMessage.findMany({
    where: { eventKey: { in: wanted.map((occurrence) => occurrence.eventKey) } },
    select: { eventKey: true },
  });
  const seen = new Set(known.map((row) => row.eventKey));
  const messages = [];
  const deliveries = [];
  for (const occurrence of wanted) {
    if (seen.has(occurrence.eventKey)) continue;
    seen.add(occurrence.eventKey);
    const id = newMessageId();
    const body = JSON.stringify({
      type: occurrence.type,
      timestamp: at.toISOString(),
      data: occurrence.data,
    });
    messages.push({ id, eventKey: occurrence.eventKey, type: occurrence.type, body, createdAt: at });
    for (const endpoint of endpoints) {
      if (!subscribedTypes(endpoint.events).includes(occurrence.type)) continue;
      deliveries.push({ messageId: id, endpointId: endpoint.id, nextAttemptAt: at });
    }
  }
  if (messages.length === 0) return;
  await tx.webhookMessage.createMany({ data: messages });
  await tx.webhookDelivery.createMany({ data: deliveries });
}

/** The outbox entries a batch of freshly appended events stands for (most stand for none). */
export async function enqueueWebhooksForEvents({ tx, events }: { tx: DbTx; events: ThreadEvent[] }) {
  const occurrences = events.flatMap(webhookOccurrencesOf);
  if (occurrences.length === 0) return;
  await enqueueWebhookOccurrences({ tx, occurrences, at: new Date(events[0]!.createdAt) });
}
