import "server-only";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { DbTx } from "./db-types";
import { eventRowsCtes, prepareEvents } from "./event-rows";
import { composeMailOutbox, enqueueMailNoticesForEvents } from "./mail-notices";
import { type SqlStatement, sql, sqlJoin } from "./sql/hot-sql";
import {
  composeWebhookOutbox,
  type EnabledWebhookEndpoint,
  enqueueWebhooksForEvents,
} from "./webhook-outbox";

// What the log's one writer (events.ts) writes beside every event it appends: the outboxes, and
// the form in which an answer's one PostgreSQL statement appends its event with them.

/** An outbox's part of one PostgreSQL statement that appends events (see `composeWebhookOutbox`). */
export interface ComposedOutbox {
  before: SqlStatement[];
  guard: SqlStatement;
  after: SqlStatement[];
  columns: SqlStatement;
  crowded(row: Record<string, unknown>): boolean;
}

/**
 * What the log's writer writes beside the events it appends, in the same transaction or
 * statement: `write` after rows appended in a transaction, `compose` as CTEs of one statement
 * (null when it cannot be written so, and the events then go in a transaction).
 */
export interface EventOutbox {
  write(args: {
    tx: DbTx;
    events: ThreadEvent[];
    endpoints?: EnabledWebhookEndpoint[];
    opened?: ReadonlySet<string>;
  }): Promise<void>;
  compose(events: ThreadEvent[]): ComposedOutbox | null;
}

const outboxes: EventOutbox[] = [
  {
    write: ({ tx, events, endpoints }) => enqueueWebhooksForEvents({ tx, events, endpoints }),
    compose: composeWebhookOutbox,
  },
  {
    write: ({ tx, events, opened }) => enqueueMailNoticesForEvents({ tx, events, opened }),
    compose: composeMailOutbox,
  },
];

/** The outboxes `appendEvents` writes, in order. */
export const eventOutboxes: readonly EventOutbox[] = outboxes;

/**
 * Adds an outbox beside the webhook and mail ones, written for every event appended from now on
 * in this process; returns its removal. Every later outbox (a chat notice, say) joins here, and
 * so reaches every event whichever path appended it.
 */
export function addEventOutbox(outbox: EventOutbox): () => void {
  outboxes.push(outbox);
  return () => {
    const index = outboxes.indexOf(outbox);
    if (index >= 0) outboxes.splice(index, 1);
  };
}

/** At most this many events go in one composed statement; more are appended in a transaction. */
const EVENTS_PER_COMPOSED_STATEMENT = 20;

/**
 * PostgreSQL: appending `bodies` as part of one larger statement whose CTE `after` decides
 * whether anything is written (an answer's claim): the CTEs that go `before` that claim, the
 * `guard` the claim must meet, the CTEs `after` it (the rows and every outbox's), and the
 * `columns` to select. `read` gives the events their seqs from the statement's row once the
 * claim took its row; `crowded` says the claim failed its guard. Null when an outbox cannot be
 * written in one statement: then append with `appendEvents` in a transaction.
 */
export function composeEventAppend({
  threadId,
  runId,
  bodies,
  after,
}: {
  threadId: string;
  runId: string | null;
  bodies: EventBody[];
  after: SqlStatement;
}): {
  before: SqlStatement[];
  guard: SqlStatement;
  after: SqlStatement[];
  columns: SqlStatement;
  read(row: Record<string, unknown>): ThreadEvent[];
  crowded(row: Record<string, unknown>): boolean;
} | null {
  if (bodies.length === 0 || bodies.length > EVENTS_PER_COMPOSED_STATEMENT) return null;
  const { createdAt, stored, events } = prepareEvents({ threadId, runId, bodies });
  const parts = outboxes.map((outbox) => outbox.compose(events));
  if (parts.some((part) => part === null)) return null;
  const composed = parts as ComposedOutbox[];
  return {
    before: composed.flatMap((part) => part.before),
    guard: sqlJoin([sql`true`, ...composed.map((part) => part.guard)], " AND "),
    after: [
      eventRowsCtes({ threadId, runId, createdAt, stored, after }),
      ...composed.flatMap((part) => part.after),
    ],
    columns: sqlJoin(
      [sql`(SELECT min("seq") FROM "inserted") AS "firstSeq"`, ...composed.map((part) => part.columns)],
      ", ",
    ),
    read(row) {
      // The request's thread is its foreign key's: a claim that took its row always appends.
      if (row.firstSeq === null || row.firstSeq === undefined)
        throw new Error(`thread ${threadId} has no event`);
      events.forEach((event, index) => {
        event.seq = Number(row.firstSeq) + index;
      });
      return events;
    },
    crowded: (row) => composed.some((part) => part.crowded(row)),
  };
}
