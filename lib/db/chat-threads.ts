import type { DbClient } from "./db-types";
import { hotSqlOf, readSqlTime, sql, sqlTable } from "./sql/hot-sql";

// Queries behind the chat pages: a user's threads.

export interface ThreadSummary {
  id: string;
  userId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

function toSummary(row: { id: string; userId: string; title: string; createdAt: Date; updatedAt: Date }) {
  return {
    id: row.id,
    userId: row.userId,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  } satisfies ThreadSummary;
}

const THREAD_FIELDS = { id: true, userId: true, title: true, createdAt: true, updatedAt: true } as const;

export async function createThread({
  db,
  userId,
  title = "",
}: {
  db: DbClient;
  userId: string;
  title?: string;
}): Promise<ThreadSummary> {
  return toSummary(await db.thread.create({ data: { userId, title }, select: THREAD_FIELDS }));
}

export async function getThreadById({ db, threadId }: { db: DbClient; threadId: string }) {
  // A request made through the HTTP API has a thread of its own (ADR 0034); it is no chat.
  // Read by every chat page and chat viewer as it opens: a hot statement (ADR 0045).
  const [row] = await hotSqlOf(db).query<{ id: string; userId: string; title: string } & Times>(sql`
    SELECT "id", "userId", "title", "createdAt", "updatedAt" FROM ${sqlTable("Thread")}
    WHERE "id" = ${threadId} AND "kind" = 'chat'`);
  return row
    ? toSummary({ ...row, createdAt: readSqlTime(row.createdAt), updatedAt: readSqlTime(row.updatedAt) })
    : null;
}

type Times = { createdAt: unknown; updatedAt: unknown };

/** Most recently active first; the list is a sidebar, so it is capped rather than paged. */
export async function listThreadsByOwner({
  db,
  userId,
  limit = 50,
}: {
  db: DbClient;
  userId: string;
  limit?: number;
}): Promise<ThreadSummary[]> {
  const rows = await db.thread.findMany({
    where: { userId, kind: "chat" },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: THREAD_FIELDS,
  });
  return rows.map(toSummary);
}

/** Names an untitled thread after its first message, once: a title set earlier is kept. */
export async function setThreadTitleIfEmpty({
  db,
  threadId,
  title,
}: {
  db: DbClient;
  threadId: string;
  title: string;
}): Promise<void> {
  await db.thread.updateMany({ where: { id: threadId, title: "" }, data: { title } });
}
