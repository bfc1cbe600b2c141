import "server-only";
import type { WebhookDeliveryView } from "@/lib/domain/webhooks";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { newestFirstPage } from "./newest-first-page";
import { engineTransaction } from "./sql/transaction-options";

/** A claimed delivery: what one attempt sends, where, and the attempt number it is. */
export interface ClaimedWebhookDelivery {
  id: string;
  attempts: number;
  messageId: string;
  body: string;
  /** Where it goes: an admin's endpoint, or an A2A client's push config (ADR 0095). */
  target:
    | { kind: "endpoint"; id: string; url: string; secretEnc: string }
    | { kind: "push"; id: string; url: string; tokenEnc: string };
}

export type WebhookAttemptOutcome =
  | { status: "delivered"; statusCode: number }
  | { status: "retry"; statusCode: number | null; error: string; retryAt: Date }
  | { status: "failed"; statusCode: number | null; error: string };

/** Deliveries due now, oldest due first, whose endpoint is switched on (pushes have no switch). */
export async function listDueWebhookDeliveryIds({
  db,
  now,
  limit,
}: {
  db: DbClient;
  now: Date;
  limit: number;
}): Promise<string[]> {
  const rows = await db.webhookDelivery.findMany({
    where: {
      status: "pending",
      nextAttemptAt: { lte: now },
      OR: [{ endpoint: { disabled: false } }, { pushConfigId: { not: null } }],
    },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * Claims one due delivery for one attempt with a single conditional update: it moves the due
 * time a lease ahead, so of several workers racing only the first still finds it due, and a
 * worker that dies mid-attempt leaves it due again when the lease runs out. Null when another
 * worker got it first (or it is no longer due).
 */
export async function claimWebhookDeliveryById({
  db,
  id,
  owner,
  now,
  leaseMs,
}: {
  db: DbClient;
  id: string;
  owner: string;
  now: Date;
  leaseMs: number;
}): Promise<ClaimedWebhookDelivery | null> {
  const claimed = await db.webhookDelivery.updateMany({
    where: { id, status: "pending", nextAttemptAt: { lte: now } },
    data: {
      leaseOwner: owner,
      nextAttemptAt: new Date(now.getTime() + leaseMs),
      attempts: { increment: 1 },
      lastAttemptAt: now,
    },
  });
  if (claimed.count !== 1) return null;
  const row = await db.webhookDelivery.findUnique({
    where: { id },
    select: {
      id: true,
      attempts: true,
      messageId: true,
      message: { select: { body: true } },
      endpoint: { select: { id: true, url: true, secretEnc: true } },
      pushConfig: { select: { id: true, url: true, tokenEnc: true } },
    },
  });
  const target = row?.endpoint
    ? ({ kind: "endpoint", ...row.endpoint } as const)
    : row?.pushConfig
      ? ({ kind: "push", ...row.pushConfig } as const)
      : null;
  if (!row || !target) return null;
  return { id: row.id, attempts: row.attempts, messageId: row.messageId, body: row.message.body, target };
}

/** Records how a claimed attempt went; false when the claim was lost meanwhile (nothing written). */
export async function recordWebhookAttemptById({
  db,
  id,
  owner,
  attempts,
  outcome,
  now,
}: {
  db: DbClient;
  id: string;
  owner: string;
  attempts: number;
  outcome: WebhookAttemptOutcome;
  now: Date;
}): Promise<boolean> {
  const data =
    outcome.status === "delivered"
      ? { status: "delivered", deliveredAt: now, lastStatusCode: outcome.statusCode, lastError: null }
      : outcome.status === "retry"
        ? { lastStatusCode: outcome.statusCode, lastError: outcome.error, nextAttemptAt: outcome.retryAt }
        : { status: "failed", lastStatusCode: outcome.statusCode, lastError: outcome.error };
  const written = await db.webhookDelivery.updateMany({
    where: { id, leaseOwner: owner, attempts, status: "pending" },
    data: { ...data, leaseOwner: null },
  });
  return written.count === 1;
}

type DeliveryRow = {
  id: string;
  messageId: string;
  endpointId: string | null;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  message: { type: string };
  endpoint: { url: string } | null;
};

function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  const common = {
    id: row.id,
    messageId: row.messageId,
    endpointId: row.endpointId ?? "",
    endpointUrl: row.endpoint?.url ?? "",
    type: row.message.type,
    attempts: row.attempts,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
  };
  if (row.status === "delivered") {
    return { ...common, status: "delivered", deliveredAt: (row.deliveredAt ?? row.createdAt).toISOString() };
  }
  if (row.status === "failed") return { ...common, status: "failed" };
  return { ...common, status: "pending", nextAttemptAt: row.nextAttemptAt.toISOString() };
}

/**
 * One page of deliveries, newest first, for the admin page (optionally of one status), and how
 * many there are in all. Both orders are indexed (`[createdAt, id]`, `[status, createdAt, id]`).
 */
export async function listWebhookDeliveryViews({
  db,
  status,
  page = 1,
  pageSize = 50,
}: {
  db: DbClient;
  status?: WebhookDeliveryView["status"];
  page?: number;
  pageSize?: number;
}): Promise<{ rows: WebhookDeliveryView[]; total: number }> {
  // The admin's page lists deliveries to its endpoints; A2A pushes belong to their clients.
  const where = { endpointId: { not: null }, ...(status ? { status } : {}) };
  const [rows, total] = await Promise.all([
    db.webhookDelivery.findMany({
      where,
      ...newestFirstPage(page, pageSize),
      select: {
        id: true,
        messageId: true,
        endpointId: true,
        status: true,
        attempts: true,
        nextAttemptAt: true,
        lastAttemptAt: true,
        lastStatusCode: true,
        lastError: true,
        deliveredAt: true,
        createdAt: true,
        message: { select: { type: true } },
        endpoint: { select: { url: true } },
      },
    }),
    db.webhookDelivery.count({ where }),
  ]);
  return { rows: rows.map(toDeliveryView), total };
}

export type WebhookReplay = { outcome: "queued" } | { outcome: "not_found" } | { outcome: "already_pending" };

/**
 * Queues a delivered or failed delivery again, due now with a fresh retry budget: the same
 * message, the same id and the same body, so a receiver that already has it can tell. One
 * conditional update, so two admins replaying at once queue it once.
 */
export async function replayWebhookDeliveryById({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<WebhookReplay> {
  return db.$transaction(async (tx) => {
    const queued = await tx.webhookDelivery.updateMany({
      where: { id, status: { in: ["delivered", "failed"] } },
      data: {
        status: "pending",
        attempts: 0,
        nextAttemptAt: new Date(),
        leaseOwner: null,
        deliveredAt: null,
      },
    });
    if (queued.count !== 1) {
      const exists = (await tx.webhookDelivery.count({ where: { id } })) === 1;
      return { outcome: exists ? "already_pending" : "not_found" } as const;
    }
    await recordAuditEntry({
      tx,
      actorId,
      action: "webhook.delivery_replayed",
      targetType: "webhook_delivery",
      targetId: id,
    });
    return { outcome: "queued" } as const;
  }, engineTransaction);
}
