import "server-only";
import { canonicalJson } from "@/lib/toolnexus/checkpoint";
import type { Message } from "@/lib/toolnexus/types";
import type { DbClient, DbTx } from "./db-types";
import {
  type HotSql,
  hotSqlOf,
  inInsertBatches,
  sql,
  sqlInt,
  sqlJsonText,
  sqlRows,
  sqlTable,
  sqlTime,
} from "./sql/hot-sql";
import { newRowId } from "./sql/row-id";

// A thread's transcript is the exact message list its runs hand to the model: message i of a
// run (history included) is the row with seq i + 1. So appending is "write whatever of this
// list the table does not have yet", which is idempotent and safe to repeat after a takeover.

/** A message as its row stores it: keys in canonical order (see `appendMissingMessages`). */
export function toMessageContent(message: Message): object {
  return JSON.parse(canonicalJson(message)) as object;
}

/**
 * Stores the messages of `messages` the thread does not hold yet. Each row's content is the
 * message's canonical text, kept as written (SQLite's TEXT, PostgreSQL's json), so a transcript
 * can be handed back for verification without serializing it again (`getTranscriptTextByThread`).
 */
export async function appendMissingMessages({
  tx,
  threadId,
  runId,
  messages,
  offset = 0,
  known,
}: {
  tx: DbTx;
  threadId: string;
  runId: string;
  messages: readonly Message[];
  /** Where `messages` start in the transcript: the ones before are stored already. */
  offset?: number;
  /**
   * How many messages the thread holds, when the caller has just read them in this same
   * transaction after writing the thread row (so no other writer can add one meanwhile).
   */
  known?: number;
}): Promise<number> {
  const hot = hotSqlOf(tx);
  const stored = known ?? (await countStoredMessages(hot, threadId));
  if (offset + messages.length <= stored) return stored;
  if (stored < offset)
    throw new Error(`thread ${threadId} holds ${stored} messages, not the ${offset} expected`);
  const createdAt = sqlTime(new Date());
  const rows = messages
    .slice(stored - offset)
    .map((message, index) => [
      newRowId(),
      threadId,
      runId,
      sqlInt(stored + index + 1),
      message.role,
      sqlJsonText(canonicalJson(message)),
      createdAt,
    ]);
  for (const batch of inInsertBatches(rows))
    await hot.execute(sql`
      INSERT INTO ${sqlTable("Message")} ("id", "threadId", "runId", "seq", "role", "content", "createdAt")
      VALUES ${sqlRows(batch)}`);
  return offset + messages.length;
}

async function countStoredMessages(hot: HotSql, threadId: string): Promise<number> {
  const [row] = await hot.query<{ stored: number | bigint | null }>(
    sql`SELECT MAX("seq") AS "stored" FROM ${sqlTable("Message")} WHERE "threadId" = ${threadId}`,
  );
  return Number(row?.stored ?? 0);
}

/**
 * The first `count` messages of a thread as their stored texts joined by ",", in order: for rows
 * written by `appendMissingMessages`, the transcript's part of a checkpoint's canonical text (see
 * `DeferredCheckpoint`), read with one query along `(threadId, seq)` and no work per row. Throws
 * unless all are there: a checkpoint referring to them can never resume on a shorter transcript.
 */
export async function getTranscriptTextByThread({
  db,
  threadId,
  count,
}: {
  db: DbClient;
  threadId: string;
  count: number;
}): Promise<string> {
  if (count === 0) return "";
  const hot = hotSqlOf(db);
  // The SQL itself differs. SQLite: the rows come in (threadId, seq) order from the index through
  // the ordered subquery, so no sorter copies the transcript as `group_concat(... ORDER BY)` would
  // (the plan is pinned in run-checkpoint.test.ts). PostgreSQL does not promise a subquery's order
  // to an aggregate, so it is asked for. Were the order ever wrong, the digest would not match.
  const [row] = await hot.query<{ found: number | bigint; text: string | null }>(
    hot.provider === "sqlite"
      ? sql`SELECT count(*) AS "found", group_concat("content", ',') AS "text"
          FROM (SELECT "content" FROM ${sqlTable("Message")} WHERE "threadId" = ${threadId} AND "seq" <= ${sqlInt(count)}
            ORDER BY "seq" LIMIT ${sqlInt(count)})`
      : sql`SELECT count(*)::int4 AS "found", string_agg("content"::text, ',' ORDER BY "seq") AS "text"
          FROM ${sqlTable("Message")} WHERE "threadId" = ${threadId} AND "seq" <= ${sqlInt(count)}`,
  );
  const found = Number(row?.found ?? 0);
  if (found !== count)
    throw new Error(`thread ${threadId} holds ${found} of the ${count} messages its run refers to`);
  return row!.text ?? "";
}

export async function listMessagesByThread({
  db,
  threadId,
  beforeSeq,
}: {
  db: DbClient | DbTx;
  threadId: string;
  /** Only messages before this seq (a run's history ends before its own user message). */
  beforeSeq?: number;
}): Promise<Message[]> {
  const rows = await db.message.findMany({
    where: beforeSeq === undefined ? { threadId } : { threadId, seq: { lt: beforeSeq } },
    orderBy: { seq: "asc" },
    select: { content: true },
  });
  return rows.map((row) => row.content as unknown as Message);
}

/** The user message that started a run, with its place in the transcript. */
export async function getRunPromptByRunId({
  db,
  runId,
}: {
  db: DbClient;
  runId: string;
}): Promise<{ seq: number; content: string } | null> {
  const row = await db.message.findFirst({
    where: { runId, role: "user" },
    orderBy: { seq: "asc" },
    select: { seq: true, content: true },
  });
  if (!row) return null;
  return { seq: row.seq, content: (row.content as unknown as { content: string }).content };
}

/**
 * The last `limit` messages of a thread up to the end of one run's part of it: what the chat
 * had said when that run parked. Reads newest first along `(threadId, seq)` and stops at `limit`.
 */
export async function listRecentMessagesByRun({
  db,
  threadId,
  runId,
  limit,
}: {
  db: DbClient;
  threadId: string;
  runId: string;
  limit: number;
}): Promise<Message[]> {
  const last = await db.message.aggregate({ where: { runId }, _max: { seq: true } });
  const upTo = last._max.seq;
  if (upTo === null) return [];
  const rows = await db.message.findMany({
    where: { threadId, seq: { lte: upTo } },
    orderBy: { seq: "desc" },
    take: limit,
    select: { content: true },
  });
  return rows.reverse().map((row) => row.content as unknown as Message);
}
