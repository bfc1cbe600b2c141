import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import { transcriptEventTypes } from "@/lib/domain/superseded-events";
import { webhookOccurrencesOf } from "@/lib/domain/webhooks";
import type { DbClient, DbTx } from "./db-types";
import { eventOutboxes } from "./event-outboxes";
import { type EventRow, prepareEvents, takeEventSeqs, toThreadEvent, writeEventRows } from "./event-rows";
import { hotSqlOf, readSqlJson, readSqlTime, sql, sqlColumns, sqlInt, sqlTable } from "./sql/hot-sql";
import { hotTransaction } from "./sql/hot-transaction";

export { addEventOutbox, composeEventAppend, type EventOutbox } from "./event-outboxes";

async function insertEvents({
  tx,
  threadId,
  runId,
  first,
  bodies,
  openedRequestRowIds,
}: {
  tx: DbTx;
  threadId: string;
  runId: string | null;
  /** Where the caller's seqs start; undefined to take them here. */
  first: number | undefined;
  bodies: EventBody[];
  openedRequestRowIds?: ReadonlySet<string>;
}): Promise<ThreadEvent[]> {
  const { createdAt, stored, events } = prepareEvents({ threadId, runId, bodies });
  const readWebhookEndpoints = events.some((event) => webhookOccurrencesOf(event).length > 0);
  const written = await writeEventRows({
    tx,
    threadId,
    runId,
    first,
    stored,
    createdAt,
    readWebhookEndpoints,
  });
  events.forEach((event, index) => {
    event.seq = written.start + index;
  });
  // Every event reaches the log through here or `composeEventAppend` (event-outboxes.ts), so the outboxes (webhooks,
  // mail) are written in the very transaction that stores the event, however the callers'
  // transactions are arranged.
  for (const outbox of eventOutboxes)
    await outbox.write({ tx, events, endpoints: written.endpoints, opened: openedRequestRowIds });
  return events;
}

/**
 * Appends events to a thread's log inside the caller's transaction (see `takeEventSeqs`), or
 * at `first` when the caller has taken the seqs itself (`takeEventSeqs` through its own write
 * of the thread row, as `createRun` does). `openedRequestRowIds` are request rows this same
 * transaction created: none of them can have a mail notice yet, so none is looked up.
 */
export async function appendEvents({
  tx,
  threadId,
  runId,
  bodies,
  first,
  openedRequestRowIds,
}: {
  tx: DbTx;
  threadId: string;
  runId: string | null;
  bodies: EventBody[];
  first?: number;
  openedRequestRowIds?: ReadonlySet<string>;
}): Promise<ThreadEvent[]> {
  if (bodies.length === 0) return [];
  return insertEvents({ tx, threadId, runId, first, bodies, openedRequestRowIds });
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
  // Every viewer's replay starts here (a chat opened, a stream reconnecting): a hot statement.
  const rows = await hotSqlOf(db).query<Record<keyof EventRow, unknown>>(sql`
    SELECT ${EVENT_COLUMNS} FROM ${sqlTable("Event")}
    WHERE "threadId" = ${threadId} AND "seq" > ${sqlInt(afterSeq)} ORDER BY "seq" LIMIT ${sqlInt(limit)}`);
  return rows.map(eventOfHotRow);
}

const EVENT_COLUMNS = sqlColumns(["threadId", "seq", "runId", "type", "payload", "createdAt"]);

/** An event row as either database hands a hot statement's back. */
function eventOfHotRow(row: Record<keyof EventRow, unknown>): ThreadEvent {
  return toThreadEvent({
    threadId: row.threadId as string,
    seq: Number(row.seq),
    runId: row.runId as string | null,
    type: row.type as string,
    payload: readSqlJson(row.payload),
    createdAt: readSqlTime(row.createdAt),
  });
}

/** The seq of a run's first event in its thread's log, or null when it has none yet. */
export async function getFirstEventSeqByRun({ db, runId }: { db: DbClient; runId: string }) {
  // Read by every chat viewer as it opens, as the two below: hot statements (ADR 0045).
  const [row] = await hotSqlOf(db).query<{ seq: unknown }>(sql`
    SELECT "seq" FROM ${sqlTable("Event")} WHERE "runId" = ${runId} ORDER BY "seq" LIMIT 1`);
  return row ? Number(row.seq) : null;
}

class RunNotHeld extends Error {}

/**
 * Appends in a transaction of its own: how a running segment streams its events. Only while
 * the run is still running under `onlyWhileHeldBy`, checked once the thread row is ours, so a
 * cancel or takeover that commits first is seen and the events of a run that has ended never
 * land after its final event; otherwise nothing is stored and the seqs taken are given back.
 */
export async function appendRunEvents({
  db,
  threadId,
  runId,
  bodies,
  onlyWhileHeldBy,
}: {
  db: DbClient;
  threadId: string;
  runId: string;
  bodies: EventBody[];
  onlyWhileHeldBy: string;
}): Promise<ThreadEvent[]> {
  if (bodies.length === 0) return [];
  try {
    return await hotTransaction(db, async (tx) => {
      const first = await takeEventSeqs({ tx, threadId, count: bodies.length });
      const held = await hotSqlOf(tx).query<{ id: string }>(
        sql`SELECT "id" FROM ${sqlTable("Run")} WHERE "id" = ${runId} AND "status" = 'running' AND "leaseOwner" = ${onlyWhileHeldBy}`,
      );
      // Throwing rolls the counter back with everything else.
      if (held.length === 0) throw new RunNotHeld();
      return insertEvents({ tx, threadId, runId, first, bodies });
    });
  } catch (error) {
    if (error instanceof RunNotHeld) return [];
    throw error;
  }
}

/**
 * Where the transcript events a run's dead segment wrote past its last safe point begin: after
 * the later of its stored state's last event and its last park. Null when it left none, so a
 * takeover has nothing to supersede.
 */
export async function getDeadSegmentStartByRun({
  db,
  runId,
  savedEventSeq,
}: {
  db: DbClient;
  runId: string;
  savedEventSeq: number;
}): Promise<number | null> {
  const park = await db.event.findFirst({
    where: { runId, type: "pending" },
    orderBy: { seq: "desc" },
    select: { seq: true },
  });
  const afterSeq = Math.max(savedEventSeq, park?.seq ?? 0);
  const dead = await db.event.findFirst({
    where: { runId, seq: { gt: afterSeq }, type: { in: [...transcriptEventTypes] } },
    select: { seq: true },
  });
  return dead ? afterSeq : null;
}

/** The `superseded` markers of a run, so a replay can skip what they void before it reaches them. */
export async function listSupersededMarkersByRun({
  db,
  runId,
}: {
  db: DbClient;
  runId: string;
}): Promise<ThreadEvent[]> {
  const rows = await hotSqlOf(db).query<Record<keyof EventRow, unknown>>(sql`
    SELECT ${EVENT_COLUMNS} FROM ${sqlTable("Event")}
    WHERE "runId" = ${runId} AND "type" = 'superseded' ORDER BY "seq"`);
  return rows.map(eventOfHotRow);
}
