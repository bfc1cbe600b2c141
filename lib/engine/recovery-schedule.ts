/**
 * When to look for runs nobody drives (ADR 0022). Often (`busyMs`) while there is something to
 * watch — the last look saw a running run anywhere, or the bus just carried activity — and
 * rarely (`idleMs`) when everything is at rest, so a quiet deployment costs no more queries than
 * a fixed slow sweep would. `wake` asks for a look within `busyMs`; `wake({ now: true })` for
 * one at once (a peer just released its runs).
 */
export function scheduleRecovery({
  sweep,
  busyMs,
  idleMs,
  onError,
}: {
  /** One look; resolves to whether there is anything to keep watching. */
  sweep: () => Promise<{ busy: boolean }>;
  busyMs: number;
  idleMs: number;
  onError: (error: unknown) => void;
}): { wake(options?: { now?: boolean }): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Number.POSITIVE_INFINITY;
  let sweeping = false;
  let again = false;
  let woken = false;
  let stopped = false;

  const arm = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    dueAt = Date.now() + ms;
    timer = setTimeout(() => void look(), ms);
  };

  const look = async () => {
    timer = undefined;
    dueAt = Number.POSITIVE_INFINITY;
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = true;
    woken = false;
    let busy = true;
    try {
      busy = (await sweep()).busy;
    } catch (error) {
      onError(error);
    } finally {
      sweeping = false;
    }
    if (again) {
      again = false;
      arm(0);
    } else arm(busy || woken ? busyMs : idleMs);
  };

  arm(busyMs);
  return {
    wake({ now = false } = {}) {
      woken = true;
      if (sweeping) {
        if (now) again = true;
        return;
      }
      const within = now ? 0 : busyMs;
      if (dueAt > Date.now() + within) arm(within);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
