import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { Message } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { appendEvents } from "./events";
import { appendMissingMessages } from "./messages";
import { engineTransaction } from "./transaction-options";

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
}: {
  db: DbClient;
  threadId: string;
  /** Who starts it: the thread must be their chat. */
  userId: string;
  model: string;
  content: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
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
    return await db.$transaction(async (tx) => {
      // The thread row is written first, and only if it is the starter's chat: that queues
      // concurrent starts on one thread, so the check below and the insert cannot interleave
      // with another start's, and the same write takes the seqs of the run's first events.
      const [thread] = await tx.thread.updateManyAndReturn({
        where: { id: threadId, userId, kind: "chat" },
        data: { lastEventSeq: { increment: bodies.length } },
        select: { lastEventSeq: true },
      });
      if (!thread) return { status: "missing" as const };
      const active = await tx.run.findFirst({
        where: { threadId, status: { in: ["running", "pending"] } },
        select: { id: true },
      });
      // Throwing gives the seqs just taken back.
      if (active) throw new ThreadBusy();
      const run = await tx.run.create({
        data: { threadId, userId, model, status: "running", leaseOwner, leaseExpiresAt },
        select: { id: true },
      });
      const rows = await tx.message.findMany({
        where: { threadId },
        orderBy: { seq: "asc" },
        select: { seq: true, content: true },
      });
      const history = rows.map((row) => row.content as unknown as Message);
      await appendMissingMessages({
        tx,
        threadId,
        runId: run.id,
        messages: [...history, { role: "user", content }],
        known: rows.at(-1)?.seq ?? 0,
      });
      const first = thread.lastEventSeq - bodies.length + 1;
      const events = await appendEvents({ tx, threadId, runId: run.id, bodies, first });
      return { status: "created" as const, runId: run.id, history, events };
    }, engineTransaction);
  } catch (error) {
    if (error instanceof ThreadBusy) return { status: "busy" };
    throw error;
  }
}

class ThreadBusy extends Error {}
