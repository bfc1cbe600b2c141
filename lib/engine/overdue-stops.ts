import type { DbClient } from "@/lib/db/db-types";
import { listDueStops, recordPendingStop } from "@/lib/db/pending-stops";
import type { CancelledRun } from "@/lib/db/run-endings";
import { logger } from "@/lib/log/logger";

/**
 * Stops that wait out a grace (ADR 0101). A Stop refused because an answered call has started
 * (ADR 0055) leaves that call its chance to finish; one that is still running when the grace is
 * over is no longer waited for, and its run ends as a Stop ends it. The Stop is stored with the
 * run, so every instance's sweep ends it when due, whichever process took it and whether or not
 * that process still runs; a timer here only makes the process that took it act on time.
 */
export interface OverdueStops {
  /**
   * Records a Stop refused at this moment, due `graceMs` from now unless one is pending already
   * (pressing Stop again does not push it back), and sweeps here when it falls due.
   */
  record(runId: string, actorId: string): Promise<void>;
  /** Ends every run whose Stop is due and whose calls still run; returns how many ended here. */
  sweep(): Promise<number>;
  /** Drops the timers (the engine is stopping); the Stops stay stored for the other instances. */
  clear(): void;
}

/** The message of `conflict:calls_started` (lib/errors.ts) names this grace to the person. */
export const defaultStoppedCallGraceMs = 30_000;

// A timer may fire a little before the wall clock that stamped the due time reaches it.
const timerSlackMs = 5;

export function createOverdueStops({
  db,
  graceMs,
  endRun,
  track,
}: {
  db: DbClient;
  graceMs: number;
  /** Ends the run as a Stop ends it, if its calls still run and its Stop is due (`overdueCalls`). */
  endRun: (runId: string, actorId: string) => Promise<CancelledRun>;
  /** Keeps the engine's `idle()` waiting for a sweep the timer started. */
  track: (work: Promise<unknown>) => void;
}): OverdueStops {
  const armed = new Map<string, NodeJS.Timeout>();

  const sweep = async () => {
    let ended = 0;
    // The cancel's conditional update decides: of instances sweeping at once, one ends the run.
    for (const { runId, actorId } of await listDueStops({ db, now: new Date() })) {
      if ((await endRun(runId, actorId)).status !== "cancelled") continue;
      ended += 1;
      logger.warn({ runId, actorId }, "run stopped: its answered calls ran past the Stop's grace");
    }
    return ended;
  };

  return {
    async record(runId, actorId) {
      const pending = await recordPendingStop({ db, runId, actorId, dueAt: new Date(Date.now() + graceMs) });
      if (pending.status !== "pending" || armed.has(runId)) return;
      const timer = setTimeout(
        () => {
          armed.delete(runId);
          track(sweep());
        },
        Math.max(0, pending.dueAt.getTime() - Date.now()) + timerSlackMs,
      );
      // A deadline alone never keeps the process alive.
      timer.unref();
      armed.set(runId, timer);
    },
    sweep,
    clear() {
      for (const timer of armed.values()) clearTimeout(timer);
      armed.clear();
    },
  };
}
