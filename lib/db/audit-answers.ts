import { answeredByWords } from "@/lib/domain/answer-words";
import { isApprovalKind, outcomeOf } from "@/lib/domain/outcome";
import { KNOWN_REQUEST_KINDS, requestKindSpec } from "@/lib/domain/request-kinds";
import "server-only";
import { listArgumentChanges } from "@/lib/domain/approval-edit";
import type { AuditOutcome, AuditRow } from "@/lib/domain/audit";
import type { Request } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { newestFirstPage } from "./newest-first-page";

export interface AuditQuery {
  actorId?: string;
  toolName?: string;
  outcome?: AuditOutcome;
  /** Answers at or after this instant. */
  from?: Date;
  /** Answers before this instant. */
  before?: Date;
  page: number;
  pageSize: number;
}

// The kinds whose positive answer reads "approved"; every other kind's reads "answered".
const APPROVAL_KINDS = KNOWN_REQUEST_KINDS.filter(isApprovalKind);

// Each negative outcome is equalities only, so `(ok, reason, createdAt, id)` yields its answers
// already in page order. Positive answers read `(ok, createdAt, id)` and are split by their
// request's kind, one lookup per row of the page.
const OUTCOME_WHERE: Record<
  AuditOutcome,
  { ok: boolean; reason?: string; request?: { kind: { in: string[] } | { notIn: string[] } } }
> = {
  approved: { ok: true, request: { kind: { in: APPROVAL_KINDS } } },
  answered: { ok: true, request: { kind: { notIn: APPROVAL_KINDS } } },
  declined: { ok: false, reason: "declined" },
  expired: { ok: false, reason: "expired" },
  cancelled: { ok: false, reason: "cancelled" },
};

function whereOf(query: AuditQuery) {
  return {
    ...(query.actorId ? { actorId: query.actorId } : {}),
    ...(query.outcome ? OUTCOME_WHERE[query.outcome] : {}),
    ...(query.toolName ? { toolName: query.toolName } : {}),
    ...(query.from || query.before
      ? {
          createdAt: {
            ...(query.from ? { gte: query.from } : {}),
            ...(query.before ? { lt: query.before } : {}),
          },
        }
      : {}),
  };
}

/**
 * One page of answers, newest first: the audit of who decided what. Answers are the record
 * (every way a request closes writes exactly one, in the claim that closes it). Indexes:
 * `(createdAt, id)`, `(actorId, createdAt, id)`, `(ok, createdAt, id)`, `(ok, reason,
 * createdAt, id)` and `(toolName, createdAt, id)` give each filter's rows in page order.
 */
export async function listAuditAnswers({
  db,
  query,
}: {
  db: DbClient;
  query: AuditQuery;
}): Promise<{ rows: AuditRow[]; total: number }> {
  const where = whereOf(query);
  const [found, total] = await Promise.all([
    db.answer.findMany({
      where,
      ...newestFirstPage(query.page, query.pageSize),
      select: {
        id: true,
        ok: true,
        reason: true,
        data: true,
        createdAt: true,
        forUserId: true,
        actor: { select: { id: true, name: true, email: true } },
        request: { select: { id: true, kind: true, prompt: true, toolName: true, args: true, data: true } },
      },
    }),
    db.answer.count({ where }),
  ]);
  // Whom an answer was given for, when someone covered for them (ADR 0098): a page's few names.
  const forIds = [...new Set(found.flatMap((row) => (row.forUserId ? [row.forUserId] : [])))];
  const forNames = new Map(
    forIds.length === 0
      ? []
      : (
          await db.user.findMany({
            where: { id: { in: forIds } },
            select: { id: true, name: true, email: true },
          })
        ).map((user) => [user.id, user.name ?? user.email ?? user.id]),
  );
  return {
    total,
    rows: found.map((row) => {
      const data = (row.data ?? undefined) as Record<string, unknown> | undefined;
      const args = row.request.args as Record<string, unknown>;
      const reason = !row.ok && typeof data?.reason === "string" ? data.reason : undefined;
      return {
        answerId: row.id,
        answeredAt: row.createdAt.toISOString(),
        actor: row.actor
          ? {
              id: row.actor.id,
              name: answeredByWords(
                row.actor.name ?? row.actor.email ?? row.actor.id,
                row.forUserId ? (forNames.get(row.forUserId) ?? row.forUserId) : null,
              ),
            }
          : null,
        requestId: row.request.id,
        kind: row.request.kind,
        prompt: row.request.prompt,
        toolName: row.request.toolName,
        outcome: outcomeOf(row.request.kind, row),
        ...(reason ? { reason } : {}),
        argumentsAsked: args,
        changes:
          row.ok && requestKindSpec(row.request.kind).form === "approval"
            ? listArgumentChanges((row.request.data ?? undefined) as Request["data"], args, data)
            : [],
      };
    }),
  };
}

/** Everyone who has answered anything, for the audit's person filter. */
export async function listAuditPeople({ db }: { db: DbClient }): Promise<{ id: string; name: string }[]> {
  const people = await db.user.findMany({
    where: { answers: { some: {} } },
    orderBy: [{ name: "asc" }, { email: "asc" }],
    select: { id: true, name: true, email: true },
  });
  return people.map((person) => ({ id: person.id, name: person.name ?? person.email ?? person.id }));
}

/** Every tool that has asked anything, for the audit's tool filter. */
export async function listAuditTools({ db }: { db: DbClient }): Promise<string[]> {
  const rows = await db.request.findMany({
    distinct: ["toolName"],
    select: { toolName: true },
    orderBy: { toolName: "asc" },
  });
  return rows.map((row) => row.toolName);
}
