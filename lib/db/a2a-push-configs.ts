import "server-only";
import { randomUUID } from "node:crypto";
import type { DbClient } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";

// Where A2A clients asked to hear of their tasks (ADR 0095), and the one way a task's new state is
// queued for them: a webhook message and a delivery to the config, in the webhook outbox, so the
// webhook worker signs, sends and retries it like any other delivery.

/** At most this many push configs per task. */
export const PUSH_CONFIGS_PER_TASK = 5;

export interface StoredPushConfig {
  /** The row's id: the sealed token is bound to it. */
  id: string;
  runId: string;
  configId: string;
  url: string;
}

export interface LivePushConfig extends StoredPushConfig {
  pushedState: string | null;
}

const shown = { id: true, runId: true, configId: true, url: true } as const;

export type PushConfigSave = { status: "saved"; config: StoredPushConfig } | { status: "full" };

/**
 * Sets a task's push config: the same `configId` replaces its URL and token; a new one is
 * refused once the task has `PUSH_CONFIGS_PER_TASK`. `seal` seals the token bound to the row.
 */
export async function saveA2aPushConfig({
  db,
  runId,
  configId,
  url,
  seal,
}: {
  db: DbClient;
  runId: string;
  configId: string;
  url: string;
  seal: (rowId: string) => string;
}): Promise<PushConfigSave> {
  return db.$transaction(async (tx) => {
    const existing = await tx.a2aPushConfig.findUnique({
      where: { runId_configId: { runId, configId } },
      select: { id: true },
    });
    if (existing) {
      const config = await tx.a2aPushConfig.update({
        where: { id: existing.id },
        data: { url, tokenEnc: seal(existing.id) },
        select: shown,
      });
      return { status: "saved", config } as const;
    }
    if ((await tx.a2aPushConfig.count({ where: { runId } })) >= PUSH_CONFIGS_PER_TASK) {
      return { status: "full" } as const;
    }
    const id = `a2p_${randomUUID().replaceAll("-", "")}`;
    const config = await tx.a2aPushConfig.create({
      data: { id, runId, configId, url, tokenEnc: seal(id) },
      select: shown,
    });
    return { status: "saved", config } as const;
  }, engineTransaction);
}

export async function getA2aPushConfig({
  db,
  runId,
  configId,
}: {
  db: DbClient;
  runId: string;
  configId: string;
}): Promise<StoredPushConfig | null> {
  return db.a2aPushConfig.findUnique({ where: { runId_configId: { runId, configId } }, select: shown });
}

export async function listA2aPushConfigs({
  db,
  runId,
}: {
  db: DbClient;
  runId: string;
}): Promise<StoredPushConfig[]> {
  return db.a2aPushConfig.findMany({ where: { runId }, orderBy: { createdAt: "asc" }, select: shown });
}

/** Removes a task's push config and its queued deliveries; false when there was none. */
export async function deleteA2aPushConfig({
  db,
  runId,
  configId,
}: {
  db: DbClient;
  runId: string;
  configId: string;
}): Promise<boolean> {
  const removed = await db.a2aPushConfig.deleteMany({ where: { runId, configId } });
  return removed.count === 1;
}

/** Configs whose task has not yet been pushed in a final state, in id order after `after`. */
export async function listLiveA2aPushConfigs({
  db,
  after,
  limit,
}: {
  db: DbClient;
  after: string | null;
  limit: number;
}): Promise<LivePushConfig[]> {
  return db.a2aPushConfig.findMany({
    where: { live: true, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
    select: { ...shown, pushedState: true },
  });
}

/**
 * Queues one push: moves the config from the state last queued (`from`) to `to` and, in the same
 * transaction, writes the message (its body fixed now) and its delivery. Of several instances
 * noticing the same change, only the first moves the config; the others queue nothing.
 */
export async function queueA2aPush({
  db,
  configRowId,
  from,
  to,
  final,
  body,
  at,
}: {
  db: DbClient;
  configRowId: string;
  from: string | null;
  to: string;
  final: boolean;
  body: string;
  at: Date;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const moved = await tx.a2aPushConfig.updateMany({
      where: { id: configRowId, pushedState: from, live: true },
      data: { pushedState: to, live: !final },
    });
    if (moved.count !== 1) return false;
    const id = `msg_${randomUUID().replaceAll("-", "")}`;
    await tx.webhookMessage.create({
      data: { id, eventKey: `a2a.push:${id}`, type: "a2a.task", body, createdAt: at },
    });
    await tx.webhookDelivery.create({
      data: { messageId: id, pushConfigId: configRowId, nextAttemptAt: at, createdAt: at },
    });
    return true;
  }, engineTransaction);
}
