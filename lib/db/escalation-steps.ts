import "server-only";
import {
  addsPerson,
  type EscalationAction,
  type EscalationStep,
  type EscalationStepView,
  ladderOf,
  parseDuration,
} from "@/lib/domain/escalation";
import type { DbClient, DbTx } from "./db-types";
import { hotSqlOf, sql, sqlInt, sqlJson, sqlRows, sqlTable, sqlTime } from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";
import { normaliseEmail } from "./users";

// A request's escalation ladder, one row per step (ADR 0093): written in the transaction that
// opens the request, and read back: the ladder as it shows, and whom it has added so far. The
// engine's sweep fires the due steps through due-escalation-steps.ts.

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

/** A stored step's action, read back as a ladder reads it; undefined should it no longer parse. */
export function actionOf(after: string, action: unknown): EscalationAction | undefined {
  return ladderOf([{ after, action }])[0]?.action;
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
