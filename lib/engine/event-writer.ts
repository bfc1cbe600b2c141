import type { DbClient } from "@/lib/db/db-types";
import { appendRunEvents } from "@/lib/db/events";
import type { EventBody, ThreadEvent } from "@/lib/domain/events";
import type { EventBus } from "./event-bus";

/**
 * Appends a run's events in order, one transaction at a time. Events are gathered for
 * `textFlushMs` (assistant text arrives a few characters per delta) so a long answer costs a
 * handful of rows, yet the chat still sees it grow live. A safe point, a park or a finish takes
 * whatever is still gathered into its own transaction (`storeWith`), so the events that lead up
 * to it cost no transaction of their own.
 */
export function createEventWriter({
  db,
  bus,
  threadId,
  runId,
  leaseOwner,
  textFlushMs,
}: {
  db: DbClient;
  bus: EventBus;
  threadId: string;
  runId: string;
  /** Events are dropped once the run is no longer running under this owner. */
  leaseOwner: string;
  textFlushMs: number;
}) {
  let chain: Promise<void> = Promise.resolve();
  let queued: EventBody[] = [];
  let text = "";
  let timer: NodeJS.Timeout | undefined;
  let failure: unknown;
  let lastSeq: number | undefined;
  const noteStored = (events: readonly ThreadEvent[]) => {
    if (events.length > 0) lastSeq = events.at(-1)!.seq;
  };

  /** Moves the text gathered so far into the queue as one event. */
  const queueText = () => {
    if (text !== "") queued.push({ type: "text", delta: text });
    text = "";
  };

  /** Stops the timer and hands over everything gathered so far, text last. */
  const takeQueued = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    queueText();
    const bodies = queued;
    queued = [];
    return bodies;
  };

  const write = () => {
    const bodies = takeQueued();
    if (bodies.length === 0) return;
    chain = chain.then(async () => {
      if (failure) return;
      try {
        const events = await appendRunEvents({ db, threadId, runId, bodies, onlyWhileHeldBy: leaseOwner });
        noteStored(events);
        await publishAll(bus, events);
      } catch (error) {
        failure = error;
      }
    });
  };

  const later = () => {
    timer ??= setTimeout(write, textFlushMs);
  };

  return {
    text(delta: string) {
      text += delta;
      later();
    },
    push(body: EventBody) {
      // Text gathered before this event comes before it in the log.
      queueText();
      queued.push(body);
      later();
    },
    /** The seq of the last event this writer stored, once it has stored one. */
    lastStoredSeq: () => lastSeq,
    /** Waits until everything pushed so far is stored; rethrows a storage failure. */
    async flush() {
      write();
      await chain;
      if (failure) throw failure;
    },
    /**
     * Runs `store` after the writes already under way, handing it the events not yet written:
     * it stores them in its own transaction, ahead of its own events, and returns every event
     * it stored (published here, in log order), or null when the run is no longer ours; then
     * the bodies are gone, as they would be for a plain write. If it throws, they are queued
     * again. Resolves to whether the run was still ours.
     */
    storeWith(store: (bodies: EventBody[]) => Promise<ThreadEvent[] | null>): Promise<boolean> {
      const bodies = takeQueued();
      const step = chain.then(async () => {
        if (failure) throw failure;
        let events: ThreadEvent[] | null;
        try {
          events = await store(bodies);
        } catch (error) {
          // Rolled back: the events were not stored, and a later write still owes them.
          queued = [...bodies, ...queued];
          throw error;
        }
        if (events === null) return false;
        noteStored(events);
        await publishAll(bus, events);
        return true;
      });
      chain = step.then(
        () => {},
        () => {},
      );
      return step;
    },
  };
}

export type EventWriter = ReturnType<typeof createEventWriter>;

/** Announces the events of one commit; listeners in this process have heard them all on return. */
export function publishAll(bus: EventBus, events: ThreadEvent[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  return bus.publish(...events.map((event) => ({ threadId: event.threadId, seq: event.seq, event })));
}
