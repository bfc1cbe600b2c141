import type { ThreadEvent } from "@/lib/domain/events";
import type { EventBus, EventNotice } from "./event-bus";

export type LoadEventsAfter = (input: {
  threadId: string;
  afterSeq: number;
  limit: number;
}) => Promise<ThreadEvent[]>;

export interface SubscribeInput {
  threadId: string;
  /** The last seq the caller already has; 0 for everything. */
  afterSeq?: number;
  signal?: AbortSignal;
  /**
   * Called for each notice of a change that wrote no event (`announceChangeWithoutEvent`: a vote
   * short of the quorum, a take, a fired escalation step), which a view of the thread's open
   * requests reads again; nothing of it is yielded. Also called when the bus asks to re-read.
   */
  onChange?: () => void;
}

const pageSize = 500;

/**
 * Persisted events after `afterSeq`, then live ones, each exactly once and in seq order.
 * The live listener is registered before the replay read, so an event committed in between is
 * seen by one or the other, and `seq` dedupes the overlap. Seqs are handed out in commit order,
 * so a hole in what arrives live means rows to read, never rows still to come.
 */
export async function* subscribeThread(
  { bus, loadEventsAfter }: { bus: EventBus; loadEventsAfter: LoadEventsAfter },
  { threadId, afterSeq = 0, signal, onChange }: SubscribeInput,
): AsyncGenerator<ThreadEvent, void, undefined> {
  let last = afterSeq;
  let carried: ThreadEvent[] = [];
  let mustRead = true;
  let wake: (() => void) | undefined;
  const onNotice = (notice: EventNotice) => {
    if (notice.event) carried.push(notice.event);
    else if (notice.seq === 0 || notice.seq > last) mustRead = true;
    if (notice.seq === 0) onChange?.();
    wake?.();
  };
  const onAbort = () => wake?.();
  const stop = bus.listen(threadId, onNotice);
  signal?.addEventListener("abort", onAbort);
  try {
    while (!signal?.aborted) {
      if (!mustRead && carried.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      const batch = carried;
      carried = [];
      batch.sort((a, b) => a.seq - b.seq);
      for (const event of batch) {
        if (event.seq <= last) continue;
        if (event.seq !== last + 1) {
          mustRead = true;
          break;
        }
        last = event.seq;
        yield event;
        if (signal?.aborted) return;
      }
      while (mustRead && !signal?.aborted) {
        mustRead = false;
        const rows = await loadEventsAfter({ threadId, afterSeq: last, limit: pageSize });
        for (const event of rows) {
          if (event.seq <= last) continue;
          last = event.seq;
          yield event;
          if (signal?.aborted) return;
        }
        if (rows.length === pageSize) mustRead = true;
      }
    }
  } finally {
    stop();
    signal?.removeEventListener("abort", onAbort);
  }
}
