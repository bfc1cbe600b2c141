import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/engine/event-types";
import type { DbClient, DbTx } from "./db-types";
import { toJson } from "./json";
import { engineTransaction } from "./transaction-options";

interface EventRow {
  threadId: string;
  seq: number;
  runId: string | null;
  type: string;
  payload: unknown;
  createdAt: Date;
}

export function toThreadEvent(row: EventRow): ThreadEvent {
  return {
    ...(row.payload as object),
    type: row.type,
    threadId: row.threadId,
    seq: row.seq,
    runId: row.runId,
    createdAt: row.createdAt.toISOString(),
  } as ThreadEvent;
}

/**
 * Appends events to a thread's log inside the caller's transaction. The thread row is written
 * first so concurrent appenders to one thread queue behind each other (a row lock on
 * PostgreSQL, the write lock on SQLite): seqs are then handed out in commit order, which is
 * what lets a subscriber treat a hole as "read the rows" rather than "wait for a straggler".
 */
export async function appendEvents({
  tx,
  threadId,
  runId,
  bodies,
  onlyWhileHeldBy,
}: {
  tx: DbTx;
  threadId: string;
  runId: string | null;
  bodies: EventBody[];
  /**
   * Append only if the run is still running under this lease owner. Checked after the thread
   * lock, so a cancel or takeover that commits first is seen, and the events of a run that has
   * ended never land after its final event.
   */
  onlyWhileHeldBy?: string;
}): Promise<ThreadEvent[]> {
  if (bodies.length === 0) return [];
  await tx.thread.updateMany({ where: { id: threadId }, data: { updatedAt: new Date() } });
  if (onlyWhileHeldBy !== undefined && runId !== null) {
    const held = await tx.run.count({ where: { id: runId, status: "running", leaseOwner: onlyWhileHeldBy } });
    if (held === 0) return [];
  }
  const top = await tx.event.aggregate({ where: { threadId }, _max: { seq: true } });
  const first = (top._max.seq ?? 0) + 1;
  const createdAt = new Date();
  const rows = bodies.map(({ type, ...payload }, index) => ({
    threadId,
    seq: first + index,
    runId,
    type,
    payload: toJson(payload),
    createdAt,
  }));
  await tx.event.createMany({ data: rows });
  return rows.map((row) => toThreadEvent({ ...row, payload: row.payload }));
}

export async function listEventsAfterSeq({
  db,
  threadId,
  afterSeq,
  limit = 500,
}: {
  db: DbClient;
  threadId: string;
  afterSeq: number;
  limit?: number;
}): Promise<ThreadEvent[]> {
  const rows = await db.event.findMany({
    where: { threadId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: limit,
  });
  return rows.map(toThreadEvent);
}

/** The seq of a run's first event in its thread's log, or null when it has none yet. */
export async function getFirstEventSeqByRun({ db, runId }: { db: DbClient; runId: string }) {
  const row = await db.event.findFirst({ where: { runId }, orderBy: { seq: "asc" }, select: { seq: true } });
  return row?.seq ?? null;
}

/** Appends in a transaction of its own: how a running segment streams its events. */
export async function appendRunEvents(input: {
  db: DbClient;
  threadId: string;
  runId: string;
  bodies: EventBody[];
  onlyWhileHeldBy: string;
}): Promise<ThreadEvent[]> {
  const { db, ...rest } = input;
  return db.$transaction((tx) => appendEvents({ tx, ...rest }), engineTransaction);
}
