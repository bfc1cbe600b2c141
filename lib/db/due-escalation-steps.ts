import "server-only";
import type { EscalationAction } from "@/lib/domain/escalation";
import type { WebhookOccurrence } from "@/lib/domain/webhooks";
import { type AuditEntry, recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { actionOf, type EscalationKind, kindOfAction } from "./escalation-steps";
import { hotSqlOf, sql, sqlInt, sqlRows, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";
import { newRowId } from "./sql/row-id";
import { enqueueWebhookOccurrences } from "./webhook-outbox";

// The steps of escalation ladders that are due (ADR 0093): the engine's expiry sweep lists them
// and claims each with one conditional update (`firedAt` still null), so a step fires once
// however many instances sweep, and one due while every instance was down fires when one comes
// back. The ladders themselves are written and read in escalation-steps.ts.

export interface DueEscalationStep {
  id: string;
  requestRowId: string;
  position: number;
  after: string;
  kind: EscalationKind;
  action: EscalationAction;
  dueAt: Date;
  /** Whether its request is still open; a closed request's unfired steps are dropped. */
  requestOpen: boolean;
}

/**
 * The steps the sweep has to do, soonest first: unfired and due. One range of the
 * `(firedAt, dueAt)` index; steps of requests closed meanwhile come too, for the sweep to drop.
 */
export async function listDueEscalationSteps({
  db,
  now,
  limit = 100,
}: {
  db: DbClient;
  now: Date;
  limit?: number;
}): Promise<DueEscalationStep[]> {
  const rows = await db.requestEscalationStep.findMany({
    where: { firedAt: null, dueAt: { lte: now } },
    // Ordered by the index alone; steps of one request due at once are put in order below.
    orderBy: { dueAt: "asc" },
    take: limit,
    select: {
      id: true,
      requestRowId: true,
      position: true,
      after: true,
      kind: true,
      action: true,
      dueAt: true,
      request: { select: { status: true } },
    },
  });
  rows.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.position - b.position);
  return rows.flatMap(({ request, ...row }) => {
    const action = actionOf(row.after, row.action);
    return action
      ? [{ ...row, kind: kindOfAction(action), action, requestOpen: request.status === "open" }]
      : [];
  });
}

/**
 * Drops a step that never fired because its request closed first (answered, expired, cancelled):
 * it has nothing left to do, and the sweep's index range stays small.
 */
export async function dropUnfiredEscalationStep({ db, id }: { db: DbClient; id: string }): Promise<void> {
  await db.requestEscalationStep.deleteMany({ where: { id, firedAt: null } });
}

/**
 * Claims a due step and writes what it announces in the same transaction: the request's
 * `escalatedAt` (which the live inbox's version reads), the audit entry, the webhook occurrences
 * and, for a reminder or an escalation, a mail notice keyed by the step (the mail worker sends
 * it to the request's addressees as they are then). False when another instance claimed it
 * first: then nothing is written.
 */
export async function claimEscalationStep({
  db,
  step,
  now,
  audit,
  occurrences,
  mail,
}: {
  db: DbClient;
  step: Pick<DueEscalationStep, "id" | "requestRowId" | "dueAt">;
  now: Date;
  audit: AuditEntry;
  occurrences: WebhookOccurrence[];
  mail: boolean;
}): Promise<{ claimed: true; lateMs: number } | { claimed: false }> {
  const lateMs = Math.max(0, now.getTime() - step.dueAt.getTime());
  // Hot statements only (`hotTransaction`): on SQLite a Prisma transaction racing another
  // instance's would time out waiting for the write lock instead of queueing for it.
  return hotTransaction(db, async (tx) => {
    const hot = hotSqlOf(tx);
    const claimed = await hot.execute(sql`
      UPDATE ${sqlTable("RequestEscalationStep")} SET "firedAt" = ${sqlTime(now)}, "lateMs" = ${sqlInt(lateMs)}
      WHERE "id" = ${step.id} AND "firedAt" IS NULL`);
    if (claimed !== 1) return { claimed: false as const };
    // The live inbox's version reads it: a step that leaves the request open moves it.
    await hot.execute(sql`
      UPDATE ${sqlTable("Request")} SET "escalatedAt" = ${sqlTime(now)} WHERE "id" = ${step.requestRowId}`);
    await recordAuditEntry({ tx, ...audit, detail: { ...audit.detail, lateMs } });
    await enqueueWebhookOccurrences({
      tx,
      occurrences: occurrences.map((occurrence) => ({
        ...occurrence,
        data: { ...occurrence.data, lateMs },
      })),
      at: now,
    });
    if (mail)
      await hot.execute(sql`
        INSERT INTO ${sqlTable("MailNotice")} ("id", "requestRowId", "stepId", "status", "nextAttemptAt", "createdAt")
        VALUES ${sqlRows([[newRowId(), step.requestRowId, step.id, "pending", sqlTime(now), sqlTime(now)]])}`);
    return { claimed: true as const, lateMs };
  });
}
