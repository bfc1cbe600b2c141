import type { DbClient } from "@/lib/db/db-types";
import { appendRunEvents } from "@/lib/db/events";
import type { EventBus } from "./event-bus";
import type { EventBody, ThreadEvent } from "./event-types";

/**
 * Appends a run's events in order, one transaction at a time. Assistant text arrives a few
 * characters per delta; it is gathered for `textFlushMs` into one event so a long answer costs
 * a handful of rows, yet the chat still sees it grow live.
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
  let text = "";
  let timer: NodeJS.Timeout | undefined;
  let failure: unknown;

  const enqueue = (bodies: EventBody[]) => {
    chain = chain.then(async () => {
      if (failure) return;
      try {
        const events = await appendRunEvents({ db, threadId, runId, bodies, onlyWhileHeldBy: leaseOwner });
        await publishAll(bus, events);
      } catch (error) {
        failure = error;
      }
    });
  };

  const takeText = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (text === "") return;
    const delta = text;
    text = "";
    enqueue([{ type: "text", delta }]);
  };

  return {
    text(delta: string) {
      text += delta;
      timer ??= setTimeout(takeText, textFlushMs);
    },
    push(body: EventBody) {
      takeText();
      enqueue([body]);
    },
    /** Waits until everything pushed so far is stored; rethrows a storage failure. */
    async flush() {
      takeText();
      await chain;
      if (failure) throw failure;
    },
  };
}

export type EventWriter = ReturnType<typeof createEventWriter>;

export async function publishAll(bus: EventBus, events: ThreadEvent[]): Promise<void> {
  for (const event of events) await bus.publish({ threadId: event.threadId, seq: event.seq, event });
}
