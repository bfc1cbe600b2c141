export interface WatchVersionOptions {
  /** Reads the current version of whatever is watched (an inbox, a chat sidebar). */
  read: () => Promise<string>;
  /** The first version read, then each one that differs from the last one reported. */
  onVersion: (version: string, first: boolean) => void;
  /** After every read, reported or not. */
  onCheck?: (version: string) => void;
  /** A read failed; the watch has stopped. */
  onError: (error: unknown) => void;
  /** How long a burst of pokes is gathered into one read. */
  coalesceMs: number;
}

export interface VersionWatch {
  /** Something may have changed: read again once the burst is over. */
  poke(): void;
  /** No more reads or reports; clears the pending timer. */
  stop(): void;
}

/**
 * Turns a stream of "something happened somewhere" pokes into few reads: one right away, then
 * at most one per `coalesceMs`, at the end of each quiet period (a reply's text deltas are
 * dozens of pokes), never two at once, and a report only when the version moved.
 */
export function watchVersion(options: WatchVersionOptions): VersionWatch {
  const { read, onVersion, onCheck, onError, coalesceMs } = options;
  let last: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  let pokedWhileReading = false;
  let stopped = false;

  const check = async () => {
    timer = undefined;
    reading = true;
    let version: string;
    try {
      version = await read();
    } catch (error) {
      if (!stopped) {
        stop();
        onError(error);
      }
      return;
    } finally {
      reading = false;
    }
    if (stopped) return;
    if (version !== last) {
      const first = last === undefined;
      last = version;
      onVersion(version, first);
    }
    onCheck?.(version);
    if (pokedWhileReading) {
      pokedWhileReading = false;
      schedule();
    }
  };

  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => void check(), coalesceMs);
  };

  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };

  void check();
  return {
    poke() {
      if (stopped) return;
      // What a read already under way saw may predate the poke, so another one follows it.
      if (reading) pokedWhileReading = true;
      else schedule();
    },
    stop,
  };
}
