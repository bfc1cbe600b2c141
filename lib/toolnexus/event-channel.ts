/**
 * An unbounded single-consumer queue bridging a producer that pushes (the loop, whose tools run
 * concurrently) to a consumer that pulls (an async iterator). No polling: the consumer parks on
 * one promise that the next push or close resolves.
 */
export interface EventChannel<T> extends AsyncIterable<T> {
  push(item: T): void;
  close(error?: unknown): void;
}

export function createEventChannel<T>(): EventChannel<T> {
  const buffer: T[] = [];
  let closed = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;

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
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (buffer.length > 0) {
          // Drain in one go; a shift() per event would be quadratic on long streams.
          const batch = buffer.splice(0, buffer.length);
          for (const item of batch) yield item;
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
