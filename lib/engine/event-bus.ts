import type { ThreadEvent } from "./event-types";

/**
 * "Thread X has events up to `seq`." Subscribers treat a notice as a hint and read the rows
 * themselves, so a notice may be late, duplicated or coalesced without losing anything. An
 * in-process notice may carry the event so a subscriber in the same process skips the read.
 */
export interface EventNotice {
  threadId: string;
  seq: number;
  event?: ThreadEvent;
}

export interface EventBus {
  /**
   * Call after the events are committed, with every notice of one commit in seq order: a bus
   * that crosses processes then announces each thread once, at its highest seq. Listeners in
   * this process have heard every notice by the time `publish` returns its promise.
   */
  publish(...notices: EventNotice[]): Promise<void>;
  /** Returns the function that stops listening. */
  listen(threadId: string, onNotice: (notice: EventNotice) => void): () => void;
  close(): Promise<void>;
}

/** Fan-out inside one process: the embedded (SQLite) default and the building block of the others. */
export function createMemoryEventBus(): EventBus & {
  deliver(notice: EventNotice): void;
  threads(): string[];
} {
  const listeners = new Map<string, Set<(notice: EventNotice) => void>>();
  const deliver = (notice: EventNotice) => {
    const set = listeners.get(notice.threadId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(notice);
      } catch {
        // One broken subscriber must not starve the others.
      }
    }
  };
  return {
    deliver,
    threads: () => [...listeners.keys()],
    async publish(...notices) {
      for (const notice of notices) deliver(notice);
    },
    listen(threadId, onNotice) {
      let set = listeners.get(threadId);
      if (!set) {
        set = new Set();
        listeners.set(threadId, set);
      }
      set.add(onNotice);
      return () => {
        set.delete(onNotice);
        if (set.size === 0 && listeners.get(threadId) === set) listeners.delete(threadId);
      };
    },
    async close() {
      listeners.clear();
    },
  };
}
