import type { ThreadEvent } from "@/lib/domain/events";

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

/**
 * A word from one engine to the others, not tied to a thread: the run it names was cancelled
 * (its owner aborts what it is doing at once), or a stopping engine released its runs (whoever
 * hears it looks for them now instead of at its next sweep). Delivered at most once, to every
 * engine including the sender's own; a lost one only costs the wait for a lease or a sweep.
 */
export type EngineSignal =
  | { type: "run_cancelled"; runId: string }
  | { type: "runs_released" }
  /** An MCP client cancelled its call; the instance holding the call withdraws its request (ADR 0064). */
  | { type: "mcp_call_cancelled"; tokenId: string; callId: string | number };

export interface EventBus {
  /**
   * Call after the events are committed, with every notice of one commit in seq order: a bus
   * that crosses processes then announces each thread once, at its highest seq. Listeners in
   * this process have heard every notice by the time `publish` returns its promise.
   */
  publish(...notices: EventNotice[]): Promise<void>;
  /** Returns the function that stops listening. */
  listen(threadId: string, onNotice: (notice: EventNotice) => void): () => void;
  /**
   * Every thread's notices, for views that span threads (the inbox). When the bus may have
   * missed some (a dropped connection came back), it says so once with a `RESYNC_NOTICE`.
   * Returns the function that stops listening.
   */
  listenAll(onNotice: (notice: EventNotice) => void): () => void;
  /** Sends an engine signal (after the commit it is about). */
  signal(message: EngineSignal): Promise<void>;
  /** Returns the function that stops listening. */
  listenSignals(onSignal: (message: EngineSignal) => void): () => void;
  close(): Promise<void>;
}

/** "Anything may have changed": re-read whatever you follow. Sent to `listenAll` listeners. */
export const RESYNC_NOTICE: Readonly<EventNotice> = Object.freeze({ threadId: "*", seq: 0 });

/**
 * Announces a change that writes no event because its request stays open (a vote short of the
 * quorum, a take, a fired reminder or escalation): a notice without a seq, which every
 * subscriber takes as "re-read", so each open inbox checks its version and each open chat
 * re-reads its cards' requests (`SubscribeInput.onChange`). Call it after the change is committed.
 */
export function announceChangeWithoutEvent(bus: EventBus, threadId: string): Promise<void> {
  return bus.publish({ threadId, seq: 0 });
}

function call<T>(listener: (message: T) => void, message: T): void {
  try {
    listener(message);
  } catch {
    // One broken subscriber must not starve the others.
  }
}

/** Fan-out inside one process: the embedded (SQLite) default and the building block of the others. */
export function createMemoryEventBus(): EventBus & {
  deliver(notice: EventNotice): void;
  deliverSignal(message: EngineSignal): void;
  /** Asks every listener to re-read: each thread's at seq 0, every `listenAll` one once. */
  resync(): void;
} {
  const listeners = new Map<string, Set<(notice: EventNotice) => void>>();
  const everything = new Set<(notice: EventNotice) => void>();
  const signalListeners = new Set<(message: EngineSignal) => void>();
  const deliverSignal = (message: EngineSignal) => {
    for (const listener of [...signalListeners]) call(listener, message);
  };
  const deliver = (notice: EventNotice) => {
    for (const listener of [...(listeners.get(notice.threadId) ?? [])]) call(listener, notice);
    for (const listener of [...everything]) call(listener, notice);
  };
  return {
    deliver,
    deliverSignal,
    resync() {
      for (const [threadId, set] of [...listeners]) {
        for (const listener of [...set]) call(listener, { threadId, seq: 0 });
      }
      for (const listener of [...everything]) call(listener, RESYNC_NOTICE);
    },
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
    listenAll(onNotice) {
      everything.add(onNotice);
      return () => {
        everything.delete(onNotice);
      };
    },
    async signal(message) {
      deliverSignal(message);
    },
    listenSignals(onSignal) {
      signalListeners.add(onSignal);
      return () => {
        signalListeners.delete(onSignal);
      };
    },
    async close() {
      listeners.clear();
      everything.clear();
      signalListeners.clear();
    },
  };
}
