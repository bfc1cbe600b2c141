import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { Checkpoint, Message, ResumableCheckpoint, Usage } from "@/lib/toolnexus/types";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { appendEvents } from "./events";
import { appendMissingMessages } from "./messages";
import { clearPendingStop } from "./pending-stops";
import { cancelOpenRequestsByRun } from "./resolve-request";
import type { StoredCheckpoint } from "./runs";
import { hotSqlOf, readSqlJson, sql, sqlInt, sqlTable, sqlTime } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";
import { engineTransaction } from "./sql/transaction-options";

export type FinalRunState = "done" | "incomplete" | "failed";

/**
 * Records how a run ended, with its final transcript and events. Null when this process no
 * longer holds the run (a cancel or a takeover got there first).
 */
export async function finishRun({
  db,
  runId,
  threadId,
  leaseOwner,
  status,
  messages,
  usage,
  turns,
  error,
  bodies,
  storedMessages,
}: {
  db: DbClient;
  runId: string;
  threadId: string;
  leaseOwner: string;
  status: FinalRunState;
  messages: readonly Message[];
  /**
   * How many messages of the transcript are stored, as the segment holding the lease knows from
   * its own safe points (saves reading the count back; a wrong one fails on the unique seq).
   */
  storedMessages?: number;
  usage?: Usage;
  turns?: number;
  error?: string;
  bodies: EventBody[];
}): Promise<ThreadEvent[] | null> {
  return hotTransaction(db, async (tx) => {
    // Turns and usage stay as stored when not given.
    const held = await hotSqlOf(tx).execute(sql`
      UPDATE ${sqlTable("Run")} SET "status" = ${status}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "error" = ${error ?? null}, "turns" = COALESCE(${sqlInt(turns ?? null)}, "turns"),
        "promptTokens" = COALESCE(${sqlInt(usage?.promptTokens ?? null)}, "promptTokens"),
        "completionTokens" = COALESCE(${sqlInt(usage?.completionTokens ?? null)}, "completionTokens"),
        "totalTokens" = COALESCE(${sqlInt(usage?.totalTokens ?? null)}, "totalTokens"),
        "version" = "version" + 1, "answeredCallsStarted" = false, ${clearPendingStop},
        "updatedAt" = ${sqlTime(new Date())}
      WHERE "id" = ${runId} AND "status" = 'running' AND "leaseOwner" = ${leaseOwner}`);
    if (held !== 1) return null;
    await appendMissingMessages({ tx, threadId, runId, messages, known: storedMessages });
    return appendEvents({ tx, threadId, runId, bodies });
  });
}

/**
 * Tool results for every call of the run's unfinished turn, so the next run of the thread
 * starts from a transcript the provider accepts.
 */
export async function closeOpenTurn(
  checkpoint: ResumableCheckpoint | null,
  output: string,
): Promise<Message[]> {
  if (!checkpoint) return [];
  if ("messages" in checkpoint) return [...checkpoint.messages, ...closingMessages(checkpoint.slots, output)];
  // A run that failed before its first safe point still has its transcript as the stored text,
  // which may be what it failed on: unreadable (or unreadable now), it is left as it is.
  try {
    const text = await checkpoint.loadTranscript();
    const messages = JSON.parse(`[${text}]`) as Message[];
    return [...messages, ...closingMessages(checkpoint.slots, output)];
  } catch {
    return [];
  }
}

function closingMessages(slots: Checkpoint["slots"], output: string): Message[] {
  return slots.map(({ call, state }) =>
    state.status === "done"
      ? {
          role: "tool",
          toolCallId: call.id,
          name: call.name,
          content: state.result.output,
          isError: state.result.isError,
        }
      : { role: "tool", toolCallId: call.id, name: call.name, content: output, isError: true },
  );
}

const stoppableCondition = sql`"status" IN ('running', 'pending') AND "answeredCallsStarted" = false`;
// The Stop recorded when it was refused (`recordPendingStop`) is due: a call finishing in time
// cleared it, and a run taken back to running later has no Stop of its own yet.
const overdueCondition = (now: Date) =>
  sql`"status" = 'running' AND "answeredCallsStarted" = true AND "stopDueAt" <= ${sqlTime(now)}`;
const cancelledOutput = "cancelled: the run was cancelled";
// The model and the chat read this as the call's result: it started, so it must not say it never ran.
const overdueOutput =
  "cancelled: the run was stopped while this call was still running; whatever it returns is discarded";

export type CancelledRun =
  | { status: "cancelled"; events: ThreadEvent[] }
  /** The run was taken back to running by an answer and the calls it waited on may have started. */
  | { status: "calls_started" }
  | { status: "ended" };

/**
 * Ends a live run on behalf of `actorId`, unless the calls it was parked on have been let start:
 * the statement that takes a parked run back to running sets `answeredCallsStarted`, and this
 * one ends only a run without it, so on the run's row exactly one of the two comes first. A
 * cancel that wins leaves every answered call unstarted; one that loses changes nothing.
 *
 * With `overdueCalls`, the Stop's grace is over (ADR 0101): it ends only a run whose answered
 * calls are still running and whose recorded Stop is due, and keeps `answeredCallsStarted` set on the cancelled row, which
 * then says that those calls started and their results were discarded.
 */
export async function cancelRunById({
  db,
  runId,
  actorId,
  overdueCalls = false,
}: {
  db: DbClient;
  runId: string;
  actorId: string;
  overdueCalls?: boolean;
}): Promise<CancelledRun> {
  return db.$transaction(async (tx): Promise<CancelledRun> => {
    // One statement, so the condition is checked on the row as it is when this write takes it
    // (on PostgreSQL after waiting for a racing answer's commit).
    const now = new Date();
    const [run] = await hotSqlOf(tx).query<{ threadId: string; checkpoint: unknown }>(sql`
      UPDATE ${sqlTable("Run")} SET "status" = 'cancelled', "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "version" = "version" + 1, ${clearPendingStop}, "updatedAt" = ${sqlTime(now)}
      WHERE "id" = ${runId} AND ${overdueCalls ? overdueCondition(now) : stoppableCondition}
      RETURNING "threadId", "checkpoint"`);
    if (!run) {
      const now = await tx.run.findUnique({ where: { id: runId }, select: { status: true } });
      const live = now?.status === "running" || now?.status === "pending";
      return { status: live ? "calls_started" : "ended" };
    }
    const checkpoint = run.checkpoint === null ? null : readSqlJson<StoredCheckpoint>(run.checkpoint);
    const events = await cancelOpenRequestsByRun({ tx, runId, threadId: run.threadId, actorId });
    if (checkpoint) {
      // The transcript up to the checkpoint is stored; only the closing tool results are new.
      const closing = closingMessages(checkpoint.slots, overdueCalls ? overdueOutput : cancelledOutput);
      await appendMissingMessages({
        tx,
        threadId: run.threadId,
        runId,
        ...(checkpoint.messages
          ? { messages: [...checkpoint.messages, ...closing] }
          : { messages: closing, offset: checkpoint.messageCount }),
      });
    }
    await recordAuditEntry({ tx, actorId, action: "run.cancelled", targetType: "run", targetId: runId });
    events.push(
      ...(await appendEvents({
        tx,
        threadId: run.threadId,
        runId,
        bodies: [{ type: "run_finished", status: "cancelled", text: "" }],
      })),
    );
    return { status: "cancelled", events };
  }, engineTransaction);
}
