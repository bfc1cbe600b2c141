import "server-only";
import { isWebhookEventType, type WebhookEndpointView } from "@/lib/domain/webhooks";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { toJson } from "./json";
import { engineTransaction } from "./sql/transaction-options";
import { enqueueWebhookTestMessage } from "./webhook-outbox";

/** An endpoint as the delivery worker needs it: its sealed secret included, for signing only. */
export interface StoredWebhookEndpoint {
  id: string;
  url: string;
  secretEnc: string;
}

function eventsOf(value: unknown) {
  return Array.isArray(value) ? value.filter(isWebhookEventType) : [];
}

/** Adds an endpoint (its id chosen by the caller, who sealed the secret to it) with its audit entry. */
export async function createWebhookEndpoint({
  db,
  endpoint,
  actorId,
}: {
  db: DbClient;
  endpoint: { id: string; url: string; description: string; events: string[]; secretEnc: string };
  actorId: string;
}): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.webhookEndpoint.create({
      data: { ...endpoint, events: toJson(endpoint.events), createdById: actorId },
    });
    await recordAuditEntry({
      tx,
      actorId,
      action: "webhook.added",
      targetType: "webhook",
      targetId: endpoint.id,
      detail: { url: endpoint.url, events: endpoint.events },
    });
  }, engineTransaction);
}

/** Every endpoint for the admin page: never the secret. */
export async function listWebhookEndpointViews({ db }: { db: DbClient }): Promise<WebhookEndpointView[]> {
  const rows = await db.webhookEndpoint.findMany({
    select: { id: true, url: true, description: true, events: true, disabled: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => ({
    ...row,
    events: eventsOf(row.events),
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function getStoredWebhookEndpointById({
  db,
  id,
}: {
  db: DbClient;
  id: string;
}): Promise<StoredWebhookEndpoint | null> {
  return db.webhookEndpoint.findUnique({ where: { id }, select: { id: true, url: true, secretEnc: true } });
}

/** Switches an endpoint off (its queued deliveries wait) or on; false when nothing changed. */
export async function setWebhookEndpointDisabledById({
  db,
  id,
  disabled,
  actorId,
}: {
  db: DbClient;
  id: string;
  disabled: boolean;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const written = await tx.webhookEndpoint.updateMany({
      where: { id, disabled: !disabled },
      data: { disabled },
    });
    if (written.count !== 1) return false;
    await recordAuditEntry({
      tx,
      actorId,
      action: disabled ? "webhook.disabled" : "webhook.enabled",
      targetType: "webhook",
      targetId: id,
    });
    return true;
  }, engineTransaction);
}

export async function webhookEndpointExistsById({ db, id }: { db: DbClient; id: string }) {
  return (await db.webhookEndpoint.count({ where: { id } })) === 1;
}

/** Removes an endpoint and its deliveries; false when there was none. */
export async function deleteWebhookEndpointById({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.findUnique({ where: { id }, select: { url: true } });
    if (!row) return false;
    const removed = await tx.webhookEndpoint.deleteMany({ where: { id } });
    if (removed.count !== 1) return false;
    await recordAuditEntry({
      tx,
      actorId,
      action: "webhook.removed",
      targetType: "webhook",
      targetId: id,
      detail: { url: row.url },
    });
    return true;
  }, engineTransaction);
}

/**
 * Queues a test event for an endpoint, with its audit entry, in one transaction. Null when the
 * endpoint does not exist (any more).
 */
export async function sendWebhookTestEventById({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<{ messageId: string } | null> {
  return db.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findUnique({ where: { id }, select: { id: true } });
    if (!endpoint) return null;
    const at = new Date();
    const sent = await enqueueWebhookTestMessage({
      tx,
      endpointId: id,
      at,
      data: { message: "A test event sent from the admin page.", endpointId: id },
    });
    await recordAuditEntry({
      tx,
      actorId,
      action: "webhook.test_sent",
      targetType: "webhook",
      targetId: id,
      detail: { messageId: sent.messageId },
    });
    return sent;
  }, engineTransaction);
}
