// The event bus's one LISTEN connection also sends the process's NOTIFYs, and a connection runs
// one query at a time: pg 8 queues overlapping ones with a deprecation warning, pg 9 refuses
// them. Publishes overlap whenever runs commit concurrently, so they go through this queue: one
// statement out at a time, and whatever arrives meanwhile goes out together in the next.

/**
 * One notification to send. Of several queued with the same `key`, only the highest `seq` is
 * sent; one without a key is never folded. `payload` is made only for the notices sent.
 */
export interface QueuedNotice {
  key?: string;
  seq: number;
  payload: () => string;
}

export interface NotifyQueue {
  /** Resolves once a statement carrying these (or later notices of their keys) has been sent. */
  notify(notices: readonly QueuedNotice[]): Promise<void>;
}

/**
 * `send` delivers a batch of payloads in one statement, never while an earlier one is out. A
 * thread's notices fold to its highest seq, since a remote subscriber reads every row up to the
 * seq it is told; a failed send is not retried (the rows are committed, and the next notice or a
 * resync covers it). PostgreSQL delivers identical payloads of one statement once, which only
 * folds repeats of a signal (each asks for the same re-check).
 */
export function createNotifyQueue(send: (payloads: string[]) => Promise<void>): NotifyQueue {
  let queued = new Map<string | symbol, QueuedNotice>();
  let waiting: (() => void)[] = [];
  let sending = false;

  const drain = async () => {
    sending = true;
    while (queued.size > 0) {
      const batch = [...queued.values()].map((notice) => notice.payload());
      const sent = waiting;
      queued = new Map();
      waiting = [];
      await send(batch).catch(() => {});
      for (const resolve of sent) resolve();
    }
    sending = false;
  };

  return {
    notify(notices) {
      if (notices.length === 0) return Promise.resolve();
      for (const notice of notices) {
        const before = notice.key === undefined ? undefined : queued.get(notice.key);
        if (!before || before.seq < notice.seq) queued.set(notice.key ?? Symbol(), notice);
      }
      const done = new Promise<void>((resolve) => waiting.push(resolve));
      if (!sending) void drain();
      return done;
    },
  };
}
