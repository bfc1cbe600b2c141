import "server-only";
import {
  addsPerson,
  type EscalationAction,
  type EscalationStep,
  type EscalationStepView,
  ladderOf,
  parseDuration,
} from "@/lib/domain/escalation";
import type { WebhookOccurrence } from "@/lib/domain/webhooks";
import { type AuditEntry, recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { hotSqlOf, sql, sqlInt, sqlJson, sqlRows, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";
import { newRowId } from "./sql/row-id";
import { normaliseEmail } from "./users";
import { enqueueWebhookOccurrences } from "./webhook-outbox";

// A request's escalation ladder, one row per step (ADR 0093). The rows are written in the
// transaction that opens the request; the engine's expiry sweep lists the due ones and claims
// each with one conditional update (`firedAt` still null), so a step fires once however many
// instances sweep, and one due while every instance was down fires when one comes back.

export type EscalationKind = "remind" | "add" | "decline" | "expire";

export function kindOfAction(action: EscalationAction): EscalationKind {
  if (typeof action === "string") return action;
  return "add" in action ? "add" : "decline";
}

/**
 * Writes a new request's ladder, inside the transaction that opens it: each step's `dueAt` is
 * `askedAt` plus its duration. A step past the request's expiry is left out (the expiry comes first).
 */
export async function insertEscalationSteps({
  tx,
  requestRowId,
  askedAt,
  expiresAt,
  steps,
}: {
  tx: DbTx;
  requestRowId: string;
  askedAt: Date;
  expiresAt: Date | null;
  steps: readonly EscalationStep[];
}): Promise<void> {
  const rows = steps.flatMap((step, position) => {
    const duration = parseDuration(step.after);
    if (!duration.ok) return [];
    const dueAt = new Date(askedAt.getTime() + duration.ms);
    if (expiresAt && dueAt > expiresAt) return [];
    const add = typeof step.action === "object" && "add" in step.action ? step.action : null;
    return [
      [
        newRowId(),
        requestRowId,
        sqlInt(position),
        step.after,
        kindOfAction(step.action),
        sqlJson(JSON.stringify(step.action)),
        sqlTime(dueAt),
        sqlTime(askedAt),
        add && addsPerson(add) ? normaliseEmail(add.add) : null,
        add && !addsPerson(add) ? add.add : null,
      ],
    ];
  });
  if (rows.length === 0) return;
  await hotSqlOf(tx).execute(sql`
    INSERT INTO ${sqlTable("RequestEscalationStep")} ("id", "requestRowId", "position", "after", "kind", "action", "dueAt", "createdAt", "addedEmail", "addedGroup")
    VALUES ${sqlRows(rows)}`);
}

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

function actionOf(after: string, action: unknown): EscalationAction | undefined {
  return ladderOf([{ after, action }])[0]?.action;
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

/** A request's ladder as it shows: every step, fired or not, in order. */
export async function listEscalationStepsByRequest({
  db,
  requestRowIds,
}: {
  db: DbClient;
  requestRowIds: readonly string[];
}): Promise<Map<string, EscalationStepView[]>> {
  const byRequest = new Map<string, EscalationStepView[]>();
  if (requestRowIds.length === 0) return byRequest;
  const rows = await db.requestEscalationStep.findMany({
    where: { requestRowId: { in: [...requestRowIds] } },
    orderBy: [{ requestRowId: "asc" }, { position: "asc" }],
  });
  for (const row of rows) {
    const action = actionOf(row.after, row.action);
    if (!action) continue;
    const view: EscalationStepView = {
      position: row.position,
      after: row.after,
      action,
      dueAt: row.dueAt.toISOString(),
      firedAt: row.firedAt?.toISOString() ?? null,
      lateMs: row.lateMs,
    };
    byRequest.set(row.requestRowId, [...(byRequest.get(row.requestRowId) ?? []), view]);
  }
  return byRequest;
}

/** Whom a fired "add" step added: a group with its own quorum, or one person. */
export type AddedAddressee =
  | { stepId: string; group: string; required: number }
  | { stepId: string; userId: string };

/**
 * The addressees a request's ladder has added so far, in the order they were added: the fired
 * "add" steps are the record of them. A person is stored by email (`addedEmail`) and read back as
 * whoever has the account with it now, as the inbox's named half matches it (named-half.ts).
 */
export async function listAddedAddressees({
  db,
  requestRowId,
}: {
  db: DbClient;
  requestRowId: string;
}): Promise<AddedAddressee[]> {
  const rows = await db.requestEscalationStep.findMany({
    where: { requestRowId, kind: "add", firedAt: { not: null } },
    orderBy: { position: "asc" },
    select: { id: true, after: true, action: true, addedEmail: true },
  });
  const added: AddedAddressee[] = [];
  for (const row of rows) {
    const action = actionOf(row.after, row.action);
    if (typeof action !== "object" || !("add" in action)) continue;
    if (!addsPerson(action)) {
      added.push({ stepId: row.id, group: action.add, required: action.required ?? 1 });
      continue;
    }
    const person = row.addedEmail
      ? await db.user.findUnique({ where: { email: row.addedEmail }, select: { id: true } })
      : null;
    if (person) added.push({ stepId: row.id, userId: person.id });
  }
  return added;
}
