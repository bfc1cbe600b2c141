/**
 * Stops that wait out a grace (ADR 0101). A Stop refused because an answered call has started
 * (ADR 0055) leaves that call its chance to finish; one that is still running when the grace is
 * over is no longer waited for, and its run ends as a Stop ends it. The deadline lives in the
 * process that took the Stop: a Stop pressed again after a restart arms it anew.
 */
export interface OverdueStops {
  /** Calls `end` once `graceMs` has passed, unless a deadline is already armed for `runId`. */
  arm(runId: string, end: () => void): void;
  /** Drops every armed deadline (the engine is stopping). */
  clear(): void;
}

/** The message of `conflict:calls_started` (lib/errors.ts) names this grace to the person. */
export const defaultStoppedCallGraceMs = 30_000;

export function createOverdueStops(graceMs: number): OverdueStops {
  const armed = new Map<string, NodeJS.Timeout>();
  return {
    arm(runId, end) {
      // The first Stop's deadline holds: pressing Stop again does not push it back.
      if (armed.has(runId)) return;
      const timer = setTimeout(() => {
        armed.delete(runId);
        end();
      }, graceMs);
      // A deadline alone never keeps the process alive.
      timer.unref();
      armed.set(runId, timer);
    },
    clear() {
      for (const timer of armed.values()) clearTimeout(timer);
      armed.clear();
    },
  };
}
