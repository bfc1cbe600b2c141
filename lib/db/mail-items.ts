import "server-only";
import type { RequestOrigin } from "@/lib/domain/request-origin";
import type { DbClient } from "./db-types";
import { DECIDED_STEP } from "./decided-mail";
import { listRequestOriginsByIds } from "./request-origins";

/** What is due to be mailed now: single requests by item, digests by person. */
export async function listDueMail({ db, now, limit }: { db: DbClient; now: Date; limit: number }) {
  const rows = await db.mailItem.findMany({
    where: { status: "queued", dueAt: { lte: now } },
    orderBy: { dueAt: "asc" },
    take: limit,
    select: { id: true, userId: true, mode: true },
  });
  return {
    instantIds: rows.filter((row) => row.mode === "instant").map((row) => row.id),
    digestUserIds: [...new Set(rows.filter((row) => row.mode === "digest").map((row) => row.userId))],
  };
}

/**
 * Claims items into one mail (`batchId`) with a single conditional update that moves their due
 * time a lease ahead: racing workers get disjoint items, so no request is in two mails of one
 * person, and items whose worker died are due again, into a new batch, when the lease lapses.
 * One item for an instant mail; every due digest item of the person for a digest.
 */
export async function claimMailBatch({
  db,
  batchId,
  target,
  now,
  leaseMs,
}: {
  db: DbClient;
  batchId: string;
  target: { itemId: string } | { digestOf: string };
  now: Date;
  leaseMs: number;
}): Promise<number> {
  const which =
    "itemId" in target ? { id: target.itemId, mode: "instant" } : { userId: target.digestOf, mode: "digest" };
  const claimed = await db.mailItem.updateMany({
    where: { ...which, status: "queued", dueAt: { lte: now } },
    data: { batchId, dueAt: new Date(now.getTime() + leaseMs), attempts: { increment: 1 } },
  });
  return claimed.count;
}

export interface MailBatch {
  batchId: string;
  user: { id: string; email: string; name: string | null };
  items: {
    id: string;
    attempts: number;
    /** The mail to the asker that their request was decided, not a request to answer. */
    decided: boolean;
    request: {
      id: string;
      kind: string;
      prompt: string;
      toolName: string;
      open: boolean;
      createdAt: Date;
      /** Who asked: the mail says so, since the prompt is their words, not the app's. */
      origin: RequestOrigin;
      /** Sent by an escalation step: a reminder, or to someone the ladder added. */
      escalation: "reminder" | "escalated" | null;
    };
  }[];
}

/** A claimed mail's recipient and requests (null when its person or email is gone). */
export async function getMailBatch({
  db,
  batchId,
}: {
  db: DbClient;
  batchId: string;
}): Promise<MailBatch | null> {
  const items = await db.mailItem.findMany({
    where: { batchId, status: "queued" },
    orderBy: { createdAt: "asc" },
    select: { id: true, userId: true, requestRowId: true, stepId: true, attempts: true },
  });
  if (items.length === 0) return null;
  const user = await db.user.findUnique({
    where: { id: items[0]!.userId },
    select: { id: true, email: true, name: true },
  });
  const ids = items.map((item) => item.requestRowId);
  const stepIds = items.map((item) => item.stepId).filter((id) => id !== "");
  const [requests, origins, steps] = await Promise.all([
    db.request.findMany({
      where: { id: { in: ids } },
      select: { id: true, kind: true, prompt: true, toolName: true, status: true, createdAt: true },
    }),
    listRequestOriginsByIds({ db, ids }),
    stepIds.length === 0
      ? []
      : db.requestEscalationStep.findMany({
          where: { id: { in: stepIds } },
          select: { id: true, kind: true },
        }),
  ]);
  const stepKinds = new Map(steps.map((step) => [step.id, step.kind]));
  const byId = new Map(requests.map((request) => [request.id, request]));
  return {
    batchId,
    user: { id: user?.id ?? items[0]!.userId, email: user?.email ?? "", name: user?.name ?? null },
    items: items.flatMap((item) => {
      const request = byId.get(item.requestRowId);
      return request
        ? [
            {
              id: item.id,
              attempts: item.attempts,
              decided: item.stepId === DECIDED_STEP,
              request: {
                ...request,
                open: request.status === "open",
                // A mail an escalation step sent says so (ADR 0093).
                escalation:
                  item.stepId === DECIDED_STEP
                    ? null
                    : stepKinds.get(item.stepId) === "add"
                      ? ("escalated" as const)
                      : item.stepId !== ""
                        ? ("reminder" as const)
                        : null,
                origin: origins.get(request.id) ?? { via: "chat" as const, ownerName: "someone" },
              },
            },
          ]
        : [];
    }),
  };
}

export type MailItemOutcome =
  | { status: "sent"; at: Date }
  | { status: "skipped" }
  | { status: "retry"; dueAt: Date; error: string }
  | { status: "failed"; error: string };

/** Records what became of items of a claimed mail; only while they are still in that batch. */
export async function recordMailItems({
  db,
  batchId,
  itemIds,
  outcome,
}: {
  db: DbClient;
  batchId: string;
  itemIds: string[];
  outcome: MailItemOutcome;
}): Promise<number> {
  if (itemIds.length === 0) return 0;
  const data =
    outcome.status === "sent"
      ? { status: "sent", sentAt: outcome.at, lastError: null }
      : outcome.status === "skipped"
        ? { status: "skipped" }
        : outcome.status === "retry"
          ? { dueAt: outcome.dueAt, lastError: outcome.error }
          : { status: "failed", lastError: outcome.error };
  const written = await db.mailItem.updateMany({
    where: { id: { in: itemIds }, batchId, status: "queued" },
    data,
  });
  return written.count;
}
