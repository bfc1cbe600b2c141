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
  onFailure,
}: {
  db: DbClient;
  bus: EventBus;
  threadId: string;
  runId: string;
  /** Events are dropped once the run is no longer running under this owner. */
  leaseOwner: string;
  textFlushMs: number;
  /** Told at once when a plain write fails (later writes are skipped, and `flush` rethrows it). */
  onFailure?: (error: unknown) => void;
}) {
  let chain: Promise<void> = Promise.resolve();
  // Every body gets the next index as it is queued; `seqs` says where the stored ones went.
  let queued: { index: number; body: EventBody }[] = [];
  let pushed = 0;
  const seqs: number[] = [];
  let text = "";
  let timer: NodeJS.Timeout | undefined;
  let failure: unknown;
  const noteStored = (taken: readonly { index: number }[], events: readonly ThreadEvent[]) => {
    if (events.length === 0) return;
    // A store returns the events of the bodies it was given first, in their order.
    taken.forEach(({ index }, i) => {
      seqs[index] = events[i]!.seq;
    });
  };

  const enqueue = (body: EventBody) => {
    queued.push({ index: pushed, body });
    pushed += 1;
  };

  /** Moves the text gathered so far into the queue as one event. */
  const queueText = () => {
    if (text !== "") enqueue({ type: "text", delta: text });
    text = "";
  };

  /** Stops the timer and hands over what is gathered before `upTo` (everything by default), text last. */
  const takeQueued = (upTo = Number.POSITIVE_INFINITY) => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (upTo > pushed) queueText();
    const taken = queued.filter((entry) => entry.index < upTo);
    queued = queued.filter((entry) => entry.index >= upTo);
    if (queued.length > 0 || text !== "") later();
    return taken;
  };

  function later() {
    timer ??= setTimeout(write, textFlushMs);
  }

  const write = () => {
    const taken = takeQueued();
    if (taken.length === 0) return;
    const bodies = taken.map((entry) => entry.body);
    chain = chain.then(async () => {
      if (failure) return;
      try {
        const events = await appendRunEvents({ db, threadId, runId, bodies, onlyWhileHeldBy: leaseOwner });
        noteStored(taken, events);
        await publishAll(bus, events);
      } catch (error) {
        failure = error;
        onFailure?.(error);
      }
    });
  };

  return {
    text(delta: string) {
      text += delta;
      later();
    },
    push(body: EventBody) {
      // Text gathered before this event comes before it in the log.
      queueText();
      enqueue(body);
      later();
    },
    /**
     * How many events have been handed to this writer so far, text gathered since the last
     * event counting as one: a position for `storeWith` and `lastStoredSeqBefore`.
     */
    position: () => pushed + (text === "" ? 0 : 1),
    /** The seq of the last stored event among the first `upTo` handed over, if any is stored. */
    lastStoredSeqBefore(upTo: number): number | undefined {
      for (let index = Math.min(upTo, pushed) - 1; index >= 0; index -= 1) {
        if (seqs[index] !== undefined) return seqs[index];
      }
      return undefined;
    },
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
     * again. Resolves to whether the run was still ours. With `upTo` (a `position`), only the
     * events handed over before it go with this store: a safe point stores the events that led
     * to it, not those of a later state that arrived meanwhile.
     */
    storeWith(
      store: (bodies: EventBody[]) => Promise<ThreadEvent[] | null>,
      upTo?: number,
    ): Promise<boolean> {
      const taken = takeQueued(upTo);
      const bodies = taken.map((entry) => entry.body);
      const step = chain.then(async () => {
        if (failure) throw failure;
        let events: ThreadEvent[] | null;
        try {
          events = await store(bodies);
        } catch (error) {
          // Rolled back: the events were not stored, and a later write still owes them.
          queued = [...taken, ...queued];
          throw error;
        }
        if (events === null) return false;
        noteStored(taken, events);
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
