import "server-only";
import type { Message } from "@/lib/toolnexus/types";
import type { DbClient, DbTx } from "./db-types";
import { toJson } from "./json";

// A thread's transcript is the exact message list its runs hand to the model: message i of a
// run (history included) is the row with seq i + 1. So appending is "write whatever of this
// list the table does not have yet", which is idempotent and safe to repeat after a takeover.

export async function appendMissingMessages({
  tx,
  threadId,
  runId,
  messages,
}: {
  tx: DbTx;
  threadId: string;
  runId: string;
  messages: readonly Message[];
}): Promise<number> {
  const top = await tx.message.aggregate({ where: { threadId }, _max: { seq: true } });
  const stored = top._max.seq ?? 0;
  if (messages.length <= stored) return stored;
  await tx.message.createMany({
    data: messages.slice(stored).map((message, index) => ({
      threadId,
      runId,
      seq: stored + index + 1,
      role: message.role,
      content: toJson(message),
    })),
  });
  return messages.length;
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
