import "server-only";
import { answeredByWords } from "@/lib/domain/answer-words";
import type { ThreadEvent } from "@/lib/domain/events";
import type { DbClient } from "./db-types";
import { type SqlStatement, sql, sqlTable, sqlTime } from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";

/**
 * The mail notice that tells a request's asker it was decided shares the outbox of new-request
 * notices, keyed by this step name: the outbox's unique (request, step) pair makes it at most
 * one per request, however many answers race.
 */
export const DECIDED_STEP = "decided";

type Resolved = Extract<ThreadEvent, { type: "request_resolved" }>;

export function resolvedEventsOf(events: readonly ThreadEvent[]): Resolved[] {
  return events.filter((event): event is Resolved => event.type === "request_resolved");
}

/**
 * The notice for one resolution, written only when the asker chose to hear of decisions and did
 * not decide it themselves. `claimed`: within one composed statement, the condition that the
 * answer's claim appended its events.
 */
export function decidedNoticeSql(event: Resolved, at: Date, claimed: SqlStatement = sql`true`): SqlStatement {
  const time = sqlTime(at);
  const byOther = event.actorId ? sql`"r"."ownerId" <> ${event.actorId}` : sql`true`;
  return sql`INSERT INTO ${sqlTable("MailNotice")} ("id", "requestRowId", "stepId", "status", "nextAttemptAt", "createdAt")
    SELECT ${newRowId()}, "r"."id", ${DECIDED_STEP}, 'pending', ${time}, ${time}
    FROM ${sqlTable("Request")} AS "r"
    WHERE "r"."id" = ${event.id} AND ${byOther} AND ${claimed}
      -- A scalar subquery: the asker's setting is looked up by its key, never joined by a walk.
      AND (SELECT "s"."emailWhenDecided" FROM ${sqlTable("NotificationSetting")} AS "s"
        WHERE "s"."userId" = "r"."ownerId") = true
    ON CONFLICT DO NOTHING`;
}

/** The asker, when the request is decided and they still want to hear of it and have an address. */
export async function listDecidedMailRecipient({ db, requestRowId }: { db: DbClient; requestRowId: string }) {
  const request = await db.request.findUnique({
    where: { id: requestRowId },
    select: { ownerId: true, status: true, owner: { select: { email: true } } },
  });
  if (!request || request.status === "open" || !request.owner.email) return { askerId: null, recipients: [] };
  const setting = await db.notificationSetting.findUnique({ where: { userId: request.ownerId } });
  return setting?.emailWhenDecided
    ? { askerId: request.ownerId, recipients: [{ userId: request.ownerId, mode: "instant" as const }] }
    : { askerId: null, recipients: [] };
}

/** How a request was decided, for its asker's mail: the outcome and who chose it. */
export async function getDecisionByRequest({ db, requestRowId }: { db: DbClient; requestRowId: string }) {
  const answer = await db.answer.findUnique({
    where: { requestRowId },
    select: { ok: true, reason: true, forUserId: true, actor: { select: { name: true, email: true } } },
  });
  if (!answer) return null;
  // "Sam for Rita" when Sam covered for Rita while she was away (ADR 0098).
  const forUser = answer.forUserId
    ? await db.user.findUnique({ where: { id: answer.forUserId }, select: { name: true, email: true } })
    : null;
  const actorName = answer.actor?.name ?? answer.actor?.email ?? null;
  return {
    ok: answer.ok,
    reason: answer.reason,
    actorName: actorName && answeredByWords(actorName, forUser ? (forUser.name ?? forUser.email) : null),
  };
}

export async function getEmailWhenDecidedByUser({ db, userId }: { db: DbClient; userId: string }) {
  const row = await db.notificationSetting.findUnique({ where: { userId } });
  return row?.emailWhenDecided ?? false;
}

export async function setEmailWhenDecidedByUser({
  db,
  userId,
  on,
}: {
  db: DbClient;
  userId: string;
  on: boolean;
}) {
  await db.notificationSetting.upsert({
    where: { userId },
    create: { userId, emailWhenDecided: on },
    update: { emailWhenDecided: on },
  });
}
