import "server-only";
import type { Audience, EventBody, RunState, ThreadEvent } from "@/lib/engine/event-types";
import type { Checkpoint, Message, Request, Usage } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { appendEvents } from "./events";
import { toJson } from "./json";
import { appendMissingMessages } from "./messages";
import { toRequestView } from "./requests";
import { engineTransaction } from "./transaction-options";

export interface StoredRun {
  id: string;
  threadId: string;
  userId: string;
  status: RunState;
  model: string;
  checkpoint: Checkpoint | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  error: string | null;
}

interface RunRow {
  id: string;
  threadId: string;
  userId: string;
  status: string;
  model: string;
  checkpoint: unknown;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  error: string | null;
}

export function toStoredRun(row: RunRow): StoredRun {
  return {
    id: row.id,
    threadId: row.threadId,
    userId: row.userId,
    status: row.status as RunState,
    model: row.model,
    checkpoint: (row.checkpoint as unknown as Checkpoint | null) ?? null,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    error: row.error,
  };
}

export async function getRunById({ db, runId }: { db: DbClient; runId: string }): Promise<StoredRun | null> {
  const row = await db.run.findUnique({ where: { id: runId } });
  return row ? toStoredRun(row) : null;
}

/** A thread runs one thing at a time: its transcript is a single line of turns. */
export async function getActiveRunByThread({ db, threadId }: { db: DbClient; threadId: string }) {
  return db.run.findFirst({
    where: { threadId, status: { in: ["running", "pending"] } },
    select: { id: true, status: true },
  });
}

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
  userId: string;
  model: string;
  content: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
}): Promise<{ busy: true } | { busy: false; runId: string; history: Message[]; events: ThreadEvent[] }> {
  return db.$transaction(async (tx) => {
    // Writing the thread row first queues concurrent starts on one thread, so the check below
    // and the insert cannot interleave with another start's.
    await tx.thread.updateMany({ where: { id: threadId }, data: { updatedAt: new Date() } });
    const active = await tx.run.findFirst({
      where: { threadId, status: { in: ["running", "pending"] } },
      select: { id: true },
    });
    if (active) return { busy: true as const };
    const run = await tx.run.create({
      data: { threadId, userId, model, status: "running", leaseOwner, leaseExpiresAt },
      select: { id: true },
    });
    const rows = await tx.message.findMany({
      where: { threadId },
      orderBy: { seq: "asc" },
      select: { content: true },
    });
    const history = rows.map((row) => row.content as unknown as Message);
    await appendMissingMessages({
      tx,
      threadId,
      runId: run.id,
      messages: [...history, { role: "user", content }],
    });
    const events = await appendEvents({
      tx,
      threadId,
      runId: run.id,
      bodies: [
        { type: "user_message", content },
        { type: "run_status", status: "running" },
      ],
    });
    return { busy: false as const, runId: run.id, history, events };
  }, engineTransaction);
}

const usageColumns = (usage: Usage) => ({
  promptTokens: usage.promptTokens,
  completionTokens: usage.completionTokens,
  totalTokens: usage.totalTokens,
});

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
  bodies = [],
}: {
  db: DbClient;
  runId: string;
  threadId: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
  checkpoint: Checkpoint;
  /** Set when the transcript grew since the last safe point. */
  withMessages: boolean;
  bodies?: EventBody[];
}): Promise<ThreadEvent[] | null> {
  return db.$transaction(async (tx) => {
    const held = await tx.run.updateMany({
      where: { id: runId, status: "running", leaseOwner },
      data: {
        checkpoint: toJson(checkpoint),
        leaseExpiresAt,
        turns: checkpoint.turns,
        ...usageColumns(checkpoint.usage),
      },
    });
    if (held.count !== 1) return null;
    if (withMessages) await appendMissingMessages({ tx, threadId, runId, messages: checkpoint.messages });
    return appendEvents({ tx, threadId, runId, bodies });
  }, engineTransaction);
}

export class ReusedRequestIdError extends Error {
  constructor(readonly requestId: string) {
    super(
      `A tool asked again with the request id "${requestId}", which this run has already used; ` +
        "the run was stopped so that the earlier answer is not applied to the new request.",
    );
    this.name = "ReusedRequestIdError";
  }
}

export interface Suspension {
  request: Request;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  audience: Audience;
}

/**
 * Parks a halted run in one transaction: run → pending with its checkpoint, one request row
 * per suspension not already parked, the transcript, the run's events not yet stored (`bodies`)
 * and then the `pending` event listing every open request of the halted turn. Returns null when
 * this process no longer holds the run.
 */
export async function parkRun({
  db,
  runId,
  threadId,
  ownerId,
  leaseOwner,
  checkpoint,
  suspensions,
  withMessages = true,
  bodies = [],
}: {
  db: DbClient;
  runId: string;
  threadId: string;
  ownerId: string;
  leaseOwner: string;
  checkpoint: Checkpoint;
  suspensions: Suspension[];
  /** False when the checkpoint's transcript is already stored. */
  withMessages?: boolean;
  /** Events of the halting turn still to be stored; they go before `pending`. */
  bodies?: EventBody[];
}): Promise<ThreadEvent[] | null> {
  return db.$transaction(async (tx) => {
    const held = await tx.run.updateMany({
      where: { id: runId, status: "running", leaseOwner },
      data: {
        status: "pending",
        checkpoint: toJson(checkpoint),
        leaseOwner: null,
        leaseExpiresAt: null,
        turns: checkpoint.turns,
        ...usageColumns(checkpoint.usage),
        version: { increment: 1 },
      },
    });
    if (held.count !== 1) return null;
    if (withMessages) await appendMissingMessages({ tx, threadId, runId, messages: checkpoint.messages });
    const wireIds = suspensions.map((s) => s.request.id);
    const existing = await tx.request.findMany({ where: { runId, requestId: { in: wireIds } } });
    // A waiting call always has an open row or none: a resolved one means a tool reused a fixed
    // id in a later turn, and its old answer must never be taken for the new question.
    const reused = existing.find((row) => row.status !== "open");
    if (reused) throw new ReusedRequestIdError(reused.requestId);
    const known = new Set(existing.map((row) => row.requestId));
    const fresh = suspensions.filter((s) => !known.has(s.request.id));
    const created =
      fresh.length === 0
        ? []
        : await tx.request.createManyAndReturn({
            data: fresh.map((s) => ({
              requestId: s.request.id,
              runId,
              threadId,
              ownerId,
              toolCallId: s.toolCallId,
              toolName: s.toolName,
              args: toJson(s.args),
              kind: s.request.kind,
              prompt: s.request.prompt,
              url: s.request.url ?? null,
              ...(s.request.data ? { data: toJson(s.request.data) } : {}),
              expiresAt: s.request.expiresAt ? new Date(s.request.expiresAt) : null,
              payload: toJson(s.request),
              audience: s.audience,
            })),
          });
    const open = [...existing.filter((row) => row.status === "open"), ...created];
    const order = new Map(wireIds.map((id, index) => [id, index]));
    open.sort((a, b) => order.get(a.requestId)! - order.get(b.requestId)!);
    return appendEvents({
      tx,
      threadId,
      runId,
      bodies: [...bodies, { type: "pending", requests: open.map(toRequestView) }],
    });
  }, engineTransaction);
}

export async function getThreadOwnerById({ db, threadId }: { db: DbClient; threadId: string }) {
  return db.thread.findUnique({ where: { id: threadId }, select: { userId: true } });
}
