import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { Message } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { appendEvents } from "./events";
import { appendMissingMessages } from "./messages";
import { hotSqlOf, readSqlJson, sql, sqlInt, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";
import { newRowId } from "./sql/row-id";

/**
 * Starts a run on `threadId` as `userId`: the prompt stored as the thread's next message, the
 * run's first events written, and the thread's stored transcript handed back as its history,
 * in one transaction. `missing` when the thread is not the user's chat, `busy` when a run of
 * it is still running or parked.
 */
export async function createRun({
  db,
  threadId,
  userId,
  model,
  content,
  leaseOwner,
  leaseExpiresAt,
  clientMessageId = null,
}: {
  db: DbClient;
  threadId: string;
  /** Who starts it: the thread must be their chat. */
  userId: string;
  model: string;
  content: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
  /** The A2A message that starts it, unique per user: a second start with it fails (ADR 0085). */
  clientMessageId?: string | null;
}): Promise<
  | { status: "missing" }
  | { status: "busy" }
  | { status: "created"; runId: string; history: Message[]; events: ThreadEvent[] }
> {
  const bodies: EventBody[] = [
    { type: "user_message", content },
    { type: "run_status", status: "running" },
  ];
  try {
    return await hotTransaction(db, async (tx) => {
      // The thread row is written first, and only if it is the starter's chat: that queues
      // concurrent starts on one thread, so the check below and the insert cannot interleave
      // with another start's, and the same write takes the seqs of the run's first events.
      const hot = hotSqlOf(tx);
      const now = sqlTime(new Date());
      const [thread] = await hot.query<{ lastEventSeq: number }>(sql`
        UPDATE ${sqlTable("Thread")} SET "lastEventSeq" = "lastEventSeq" + ${sqlInt(bodies.length)}, "updatedAt" = ${now}
        WHERE "id" = ${threadId} AND "userId" = ${userId} AND "kind" = 'chat' RETURNING "lastEventSeq"`);
      if (!thread) return { status: "missing" as const };
      const active = await hot.query<{ id: string }>(sql`
        SELECT "id" FROM ${sqlTable("Run")} WHERE "threadId" = ${threadId} AND "status" IN ('running', 'pending') LIMIT 1`);
      // Throwing gives the seqs just taken back.
      if (active.length > 0) throw new ThreadBusy();
      const run = { id: newRowId() };
      await hot.execute(sql`
        INSERT INTO ${sqlTable("Run")} ("id", "threadId", "userId", "status", "model", "leaseOwner", "leaseExpiresAt",
          "clientMessageId", "createdAt", "updatedAt")
        VALUES (${run.id}, ${threadId}, ${userId}, 'running', ${model}, ${leaseOwner}, ${sqlTime(leaseExpiresAt)},
          ${clientMessageId}, ${now}, ${now})`);
      const rows = await hot.query<{ seq: number; content: unknown }>(sql`
        SELECT "seq", "content" FROM ${sqlTable("Message")} WHERE "threadId" = ${threadId} ORDER BY "seq"`);
      const history = rows.map((row) => readSqlJson<Message>(row.content));
      await appendMissingMessages({
        tx,
        threadId,
        runId: run.id,
        messages: [...history, { role: "user", content }],
        known: Number(rows.at(-1)?.seq ?? 0),
      });
      const first = Number(thread.lastEventSeq) - bodies.length + 1;
      const events = await appendEvents({ tx, threadId, runId: run.id, bodies, first });
      return { status: "created" as const, runId: run.id, history, events };
    });
  } catch (error) {
    if (error instanceof ThreadBusy) return { status: "busy" };
    throw error;
  }
}

class ThreadBusy extends Error {}
