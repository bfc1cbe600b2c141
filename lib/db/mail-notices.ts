import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import type { EmailMode } from "@/lib/domain/notifications";
import type { DbClient, DbTx } from "./db-types";
import { decidedNoticeSql, resolvedEventsOf } from "./decided-mail";
import { hotSqlOf, sql, sqlList, sqlRows, sqlTable, sqlTime } from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";

/**
 * The mail outbox: one notice per request that opened, in the transaction of the `pending`
 * event that opened it (called from the one place events are written), so no request is missed
 * by a crash and none is announced twice when a later park lists it again.
 */
export async function enqueueMailNoticesForEvents({
  tx,
  events,
  opened = new Set(),
}: {
  tx: DbTx;
  events: ThreadEvent[];
  /** Request rows created in this transaction, which cannot have a notice yet. */
  opened?: ReadonlySet<string>;
}) {
  const hot = hotSqlOf(tx);
  // A decided request's asker, when they chose to hear of it (one statement per resolution).
  for (const event of resolvedEventsOf(events))
    await hot.execute(decidedNoticeSql(event, new Date(event.createdAt)));
  const ids = [
    ...new Set(
      events.flatMap((event) =>
        event.type === "pending"
          ? event.requests.filter((view) => view.status === "open").map((view) => view.id)
          : [],
      ),
    ),
  ];
  if (ids.length === 0) return;
  const toCheck = ids.filter((id) => !opened.has(id));
  const known =
    toCheck.length === 0
      ? []
      : await hot.query<{ requestRowId: string }>(
          sql`SELECT "requestRowId" FROM ${sqlTable("MailNotice")} WHERE "requestRowId" IN (${sqlList(toCheck)}) AND "stepId" = ''`,
        );
  const seen = new Set(known.map((row) => row.requestRowId));
  const fresh = ids.filter((id) => !seen.has(id));
  if (fresh.length === 0) return;
  const at = sqlTime(new Date(events[0]!.createdAt));
  await hot.execute(sql`
    INSERT INTO ${sqlTable("MailNotice")} ("id", "requestRowId", "status", "nextAttemptAt", "createdAt")
    VALUES ${sqlRows(fresh.map((requestRowId) => [newRowId(), requestRowId, "pending", at, at]))}`);
}

/**
 * In one statement that appends events (`composeEventAppend`): a resolution's notice to its
 * asker as a CTE (no statement of its own); null (append them in a transaction) when one opens
 * a request, since whether its notice exists is read first, or when several resolve.
 */
export function composeMailOutbox(events: readonly ThreadEvent[]) {
  const opens = events.some(
    (event) => event.type === "pending" && event.requests.some((view) => view.status === "open"),
  );
  const resolved = resolvedEventsOf(events);
  if (opens || resolved.length > 1) return null;
  // An answer's resolution: its asker's notice goes in the same statement, only if it appended.
  const after = resolved.map(
    (event) =>
      sql`"decidedNotice" AS (${decidedNoticeSql(event, new Date(event.createdAt), sql`EXISTS (SELECT 1 FROM "inserted")`)})`,
  );
  return { before: [], guard: sql`true`, after, columns: sql`0 AS "mailNotices"`, crowded: () => false };
}

export async function listDueMailNotices({ db, now, limit }: { db: DbClient; now: Date; limit: number }) {
  return db.mailNotice.findMany({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true, requestRowId: true, stepId: true },
  });
}

/** One conditional update: of racing workers only the first still finds the notice due. */
export async function claimMailNoticeById({
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
}): Promise<boolean> {
  const claimed = await db.mailNotice.updateMany({
    where: { id, status: "pending", nextAttemptAt: { lte: now } },
    data: { leaseOwner: owner, nextAttemptAt: new Date(now.getTime() + leaseMs) },
  });
  return claimed.count === 1;
}

/**
 * Turns a claimed notice into its mail items, then marks it done; false when the claim was lost.
 * No interactive transaction: the items are unique per request and person, so a worker that
 * died between the two steps leaves a notice whose next fan-out finds them made and adds none.
 */
export async function fanOutMailNoticeById({
  db,
  id,
  owner,
  requestRowId,
  stepId = "",
  items,
}: {
  db: DbClient;
  id: string;
  owner: string;
  requestRowId: string;
  /** The escalation step the notice is for, "" for the request's opening. */
  stepId?: string;
  items: { userId: string; mode: Exclude<EmailMode, "off">; dueAt: Date }[];
}): Promise<boolean> {
  if (items.length > 0) {
    const known = await db.mailItem.findMany({ where: { requestRowId, stepId }, select: { userId: true } });
    const seen = new Set(known.map((row) => row.userId));
    const fresh = items.filter((item) => !seen.has(item.userId));
    if (fresh.length > 0)
      await db.mailItem.createMany({ data: fresh.map((item) => ({ ...item, requestRowId, stepId })) });
  }
  const done = await db.mailNotice.updateMany({
    where: { id, status: "pending", leaseOwner: owner },
    data: { status: "done", leaseOwner: null },
  });
  return done.count === 1;
}
