/**
 * An unbounded single-consumer queue bridging a producer that pushes (the loop, whose tools run
 * concurrently) to a consumer that pulls (an async iterator). No polling: the consumer parks on
 * one promise that the next push or close resolves.
 */
export interface EventChannel<T> extends AsyncIterable<T> {
  push(item: T): void;
  close(error?: unknown): void;
  /**
   * Settles once the consumer has taken the first `count` items and asked for the next one (so
   * its handling of them is done), or once the channel is closed.
   */
  taken(count: number): Promise<void>;
}

export function createEventChannel<T>(): EventChannel<T> {
  const buffer: T[] = [];
  let closed = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  let pulled = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const settleWaiting = () => {
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      if (closed || waiting[i]!.count <= pulled) waiting.splice(i, 1)[0]!.resolve();
    }
  };

  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };

  return {
    push(item) {
      if (closed) return;
      buffer.push(item);
      notify();
    },
    close(error?: unknown) {
      if (closed) return;
      closed = true;
      if (error !== undefined) failure = { error };
      notify();
      settleWaiting();
    },
    taken(count) {
      if (closed || pulled >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push({ count, resolve }));
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (buffer.length > 0) {
          // Drain in one go; a shift() per event would be quadratic on long streams.
          const batch = buffer.splice(0, buffer.length);
          for (const item of batch) {
            yield item;
            pulled += 1;
            if (waiting.length > 0) settleWaiting();
          }
          continue;
        }
        if (failure) throw failure.error;
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
