import "server-only";
import type { RunState } from "@/lib/domain/events";
import type { DbClient } from "./db-types";

// The keys an A2A client chooses (ADR 0085): its contextId names a chat of its owner, and the
// messageId of the message that started a run names that run. Both are unique per owner in
// the database, so a client that sends again after a restart finds what it sent before.

/** The run the owner's message `clientMessageId` started, if one did. */
export async function findRunIdByClientMessageId({
  db,
  userId,
  clientMessageId,
}: {
  db: DbClient;
  userId: string;
  clientMessageId: string;
}): Promise<string | null> {
  const run = await db.run.findUnique({
    where: { userId_clientMessageId: { userId, clientMessageId } },
    select: { id: true },
  });
  return run?.id ?? null;
}

async function findContextThread(db: DbClient, userId: string, contextId: string): Promise<string | null> {
  const thread = await db.thread.findFirst({
    where: { userId, kind: "chat", OR: [{ id: contextId }, { contextKey: contextId }] },
    select: { id: true },
  });
  return thread?.id ?? null;
}

/**
 * The owner's chat a contextId names: the chat with that id, or the one the client named so
 * before; a name used for the first time makes a new chat of the owner's.
 */
export async function contextThreadId({
  db,
  userId,
  contextId,
}: {
  db: DbClient;
  userId: string;
  contextId: string;
}): Promise<string> {
  const found = await findContextThread(db, userId, contextId);
  if (found) return found;
  try {
    const made = await db.thread.create({ data: { userId, contextKey: contextId }, select: { id: true } });
    return made.id;
  } catch (error) {
    // Two first messages of one context at once: the unique key lets one chat be made.
    const raced = await findContextThread(db, userId, contextId);
    if (raced) return raced;
    throw error;
  }
}

export interface RunTaskPage {
  runIds: string[];
  /** The last run's id when more may follow, else "". */
  nextPageToken: string;
  total: number;
}

/**
 * The owner's runs, newest first, in one context or all, of some states, paged by run id;
 * `bad_page_token` when the token is no run of this listing.
 */
export async function listRunTaskIds({
  db,
  userId,
  contextId,
  statuses,
  updatedFrom,
  pageSize,
  pageToken,
}: {
  db: DbClient;
  userId: string;
  contextId: string;
  statuses: RunState[] | null;
  updatedFrom: Date | null;
  pageSize: number;
  pageToken: string;
}): Promise<RunTaskPage | "bad_page_token"> {
  const threadId = contextId ? await findContextThread(db, userId, contextId) : null;
  if (contextId && !threadId) return { runIds: [], nextPageToken: "", total: 0 };
  const where = {
    userId,
    ...(threadId ? { threadId } : {}),
    ...(statuses ? { status: { in: statuses } } : {}),
    ...(updatedFrom ? { updatedAt: { gte: updatedFrom } } : {}),
  };
  if (pageToken && !(await db.run.findFirst({ where: { ...where, id: pageToken }, select: { id: true } }))) {
    return "bad_page_token";
  }
  const [total, rows] = await Promise.all([
    db.run.count({ where }),
    db.run.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...(pageToken ? { cursor: { id: pageToken }, skip: 1 } : {}),
      take: pageSize + 1,
      select: { id: true },
    }),
  ]);
  const page = rows.slice(0, pageSize).map((row) => row.id);
  return { runIds: page, nextPageToken: rows.length > pageSize ? page.at(-1)! : "", total };
}
