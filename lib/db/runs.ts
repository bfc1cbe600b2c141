import "server-only";
import type { EventBody, RunState, ThreadEvent } from "@/lib/domain/events";
import type { Checkpoint, Message, ResumableCheckpoint, Usage } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { appendEvents } from "./events";
import { toJson } from "./json";
import { appendMissingMessages, getTranscriptTextByThread } from "./messages";
import { clearPendingStop } from "./pending-stops";
import { hotSqlOf, sql, sqlInt, sqlJson, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";

/**
 * A checkpoint as a run's row keeps it: everything but the transcript, which is the thread's
 * first `messageCount` Message rows, stored in the same transaction as the checkpoint. So a safe
 * point writes the messages it added and a few hundred bytes, however long the conversation,
 * and `loadRunCheckpoint` puts the whole back together. Its digest still covers the transcript,
 * so a changed row fails verification on resume as a changed checkpoint would. Rows stored
 * before this form still carry `messages` and are read as they are. Storage reads nothing else
 * of it but `slots`: a row an earlier release wrote (an older checkpoint version) is handed back
 * as it stands, and `client.resume` upgrades it as it reads it.
 */
export type StoredCheckpoint = Omit<Checkpoint, "messages"> &
  ({ messageCount: number; messages?: undefined } | { messages: Message[]; messageCount?: undefined });

export interface StoredRun {
  id: string;
  threadId: string;
  userId: string;
  status: RunState;
  model: string;
  checkpoint: StoredCheckpoint | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  error: string | null;
  /** Moves on with every change of hands, and with every answer a parked run takes. */
  version: number;
  /** The last event seq of the thread that the stored state accounts for (see `saveRunCheckpoint`). */
  savedEventSeq: number;
  /**
   * Set from an answer's taking the run back to running until its calls' results are stored; a
   * cancelled run keeps it when those calls ran past the Stop's grace (ADR 0101).
   */
  answeredCallsStarted: boolean;
}

export interface RunRow {
  id: string;
  threadId: string;
  userId: string;
  status: string;
  model: string;
  checkpoint: unknown;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  error: string | null;
  version: number;
  savedEventSeq: number;
  answeredCallsStarted: boolean;
}

export function toStoredRun(row: RunRow): StoredRun {
  return {
    id: row.id,
    threadId: row.threadId,
    userId: row.userId,
    status: row.status as RunState,
    model: row.model,
    checkpoint: (row.checkpoint as unknown as StoredCheckpoint | null) ?? null,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    error: row.error,
    version: row.version,
    savedEventSeq: row.savedEventSeq,
    answeredCallsStarted: row.answeredCallsStarted,
  };
}

export async function getRunById({ db, runId }: { db: DbClient; runId: string }): Promise<StoredRun | null> {
  const row = await db.run.findUnique({ where: { id: runId } });
  return row ? toStoredRun(row) : null;
}

/** A thread runs one thing at a time: its transcript is a single line of turns. */
export async function getActiveRunByThread({
  db,
  threadId,
}: {
  db: DbClient;
  threadId: string;
}): Promise<{ id: string; status: "running" | "pending" } | null> {
  // Read by every chat viewer as it opens: a hot statement (ADR 0045).
  const [row] = await hotSqlOf(db).query<{ id: string; status: "running" | "pending" }>(sql`
    SELECT "id", "status" FROM ${sqlTable("Run")}
    WHERE "threadId" = ${threadId} AND "status" IN ('running', 'pending') LIMIT 1`);
  return row ?? null;
}

const usageColumns = (usage: Usage) => ({
  promptTokens: usage.promptTokens,
  completionTokens: usage.completionTokens,
  totalTokens: usage.totalTokens,
});

/**
 * The run columns a safe point sets, whether the run goes on or parks there. The caller stores
 * the checkpoint's transcript in the same transaction (see `StoredCheckpoint`).
 */
export const checkpointColumns = (checkpoint: Checkpoint) => {
  const { messages, ...rest } = checkpoint;
  const stored: StoredCheckpoint = { ...rest, messageCount: messages.length };
  return { checkpoint: toJson(stored), turns: checkpoint.turns, ...usageColumns(checkpoint.usage) };
};

/**
 * The whole checkpoint of a stored run: its row's part and the transcript it refers to, which
 * is read when `client.resume` asks for it (`DeferredCheckpoint`): the answered tool then runs
 * without waiting for a long conversation to be read and checked. The read refuses a transcript
 * shorter than the checkpoint counts. Storage hands the row back as it stands, whatever release
 * wrote it: `client.resume` reads every form a checkpoint was ever stored in.
 */
export async function loadRunCheckpoint({
  db,
  threadId,
  stored,
}: {
  db: DbClient;
  threadId: string;
  stored: StoredCheckpoint;
}): Promise<ResumableCheckpoint> {
  if (stored.messages) return stored as Checkpoint;
  const { messageCount, ...rest } = stored;
  // Whatever it is, `client.resume` checks it against the checkpoint's digest.
  const read = () => getTranscriptTextByThread({ db, threadId, count: messageCount });
  // Read once however often it is asked for: a run that fails closes its open turn from it.
  let text: Promise<string> | undefined;
  return { ...rest, loadTranscript: () => (text ??= read()) };
}

/** How many messages a stored checkpoint's transcript holds, in either stored form. */
export function storedMessageCount(stored: StoredCheckpoint): number {
  return stored.messages ? stored.messages.length : stored.messageCount;
}

/**
 * Stores a safe point, with the run's events that led up to it; null when this process no
 * longer holds the run (lease lost, cancelled), and then the events are dropped too.
 */
export async function saveRunCheckpoint({
  db,
  runId,
  threadId,
  leaseOwner,
  leaseExpiresAt,
  checkpoint,
  withMessages,
  storedMessages,
  bodies = [],
  lastStoredSeq,
}: {
  db: DbClient;
  runId: string;
  threadId: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
  checkpoint: Checkpoint;
  /** Set when the transcript grew since the last safe point. */
  withMessages: boolean;
  /**
   * How many messages of the transcript are stored, as the segment holding the lease knows from
   * its own safe points (saves reading the count back; a wrong one fails on the unique seq).
   */
  storedMessages?: number;
  bodies?: EventBody[];
  /** The seq of the segment's last event already stored, if any: this state accounts for it. */
  lastStoredSeq?: number;
}): Promise<ThreadEvent[] | null> {
  return hotTransaction(db, async (tx) => {
    const now = sqlTime(new Date());
    const columns = checkpointColumns(checkpoint);
    const hot = hotSqlOf(tx);
    const savedSeq = bodies.length === 0 && lastStoredSeq !== undefined ? lastStoredSeq : null;
    // The answered calls a resume let start have all settled once no slot waits on an answer: a
    // Stop may end the run again from this state on (ADR 0055).
    const settled = checkpoint.slots.every((slot) => slot.state.status !== "suspended");
    // Then a Stop refused meanwhile is not waited on either: the calls came back in time (ADR 0101).
    const callsEnded = settled ? sql`"answeredCallsStarted" = false, ${clearPendingStop},` : sql``;
    const held = await hot.execute(
      sql`UPDATE ${sqlTable("Run")} SET ${callsEnded} "checkpoint" = ${sqlJson(JSON.stringify(columns.checkpoint))}, "turns" = ${sqlInt(columns.turns)}, "promptTokens" = ${sqlInt(columns.promptTokens)}, "completionTokens" = ${sqlInt(columns.completionTokens)}, "totalTokens" = ${sqlInt(columns.totalTokens)}, "leaseExpiresAt" = ${sqlTime(leaseExpiresAt)}, "savedEventSeq" = COALESCE(${sqlInt(savedSeq)}, "savedEventSeq"), "updatedAt" = ${now} WHERE "id" = ${runId} AND "status" = 'running' AND "leaseOwner" = ${leaseOwner}`,
    );
    if (held !== 1) return null;
    if (withMessages)
      await appendMissingMessages({
        tx,
        threadId,
        runId,
        messages: checkpoint.messages,
        known: storedMessages,
      });
    const events = await appendEvents({ tx, threadId, runId, bodies });
    // Seqs are known only once taken, after the run's row (written first, as everywhere).
    if (events.length > 0) {
      await hot.execute(
        sql`UPDATE ${sqlTable("Run")} SET "savedEventSeq" = ${sqlInt(events.at(-1)!.seq)}, "updatedAt" = ${now} WHERE "id" = ${runId}`,
      );
    }
    return events;
  });
}

export async function getThreadOwnerById({ db, threadId }: { db: DbClient; threadId: string }) {
  return db.thread.findUnique({ where: { id: threadId }, select: { userId: true, kind: true } });
}
