import { logger } from "@/lib/log/logger";

export interface PollingPass {
  start(): void;
  /** Stops polling and waits for a pass under way to end. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `pollMs` until stopped; a pass that did some work (returned more than 0)
 * may have left more due, so the next one follows at once rather than after a poll. A failed
 * pass is logged and the polling goes on.
 */
export function pollPasses({
  pass,
  pollMs,
  failure,
}: {
  pass: () => Promise<number>;
  pollMs: number;
  /** The log message of a failed pass. */
  failure: string;
}): PollingPass {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;

  const loop = () => {
    if (stopped) return;
    running = pass().catch((error: unknown) => {
      logger.error({ err: error }, failure);
      return 0;
    });
    void running.then((done) => {
      if (!stopped) timer = setTimeout(loop, done > 0 ? 0 : pollMs);
    });
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
