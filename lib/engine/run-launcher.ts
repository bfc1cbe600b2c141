import { claimParkedRun, type RunLease, releaseRunLeases } from "@/lib/db/run-leases";
import type { StoredRun } from "@/lib/db/runs";
import { isDatabaseUnavailable } from "@/lib/db/sql/database-unavailable";
import { logger } from "@/lib/log/logger";
import type { Answer } from "@/lib/toolnexus/types";
import { type KnownState, prepareContinuation, toResumeAnswer } from "./continue-run";
import { type DriveDeps, driveRun, type Segment } from "./drive-run";

export function reportEngineError(error: unknown) {
  // A sweep or renewal that met the database away is tried again on its next tick.
  if (isDatabaseUnavailable(error))
    logger.warn({ err: error }, "engine task paused: the database is unavailable");
  else logger.error({ err: error }, "engine task failed");
}

export const leaseUntil = (leaseMs: number) => new Date(Date.now() + leaseMs);

/**
 * Drives the segments of the runs this process holds, one segment per run at a time, and keeps
 * every piece of background work it starts so that `idle` and `stop` can wait for it.
 */
export interface RunLauncher {
  /** Runs a segment of a run we hold; `prepare` returns null when there is nothing to drive. */
  launch(runId: string, prepare: (signal: AbortSignal) => Promise<Segment | null>): void;
  /** Continues a run we hold from its last stored state. */
  continueRun(runId: string, known?: KnownState): void;
  /** Claims a parked run whose requests are all settled, then continues it. */
  resumeWhenReady(runId: string, answer?: Answer): void;
  /**
   * The lease under which the answer to a parked run's last open request takes the run for this
   * process in the answer's own statement; undefined while this process stops taking runs.
   */
  leaseForTaking(): RunLease | undefined;
  /** Continues a parked run that the answer to its last request has just taken for this process. */
  continueTakenRun(run: StoredRun, answer: Answer): void;
  /** Keeps a piece of background work until it settles; its failure is reported, not thrown. */
  track(work: Promise<unknown>): void;
  isLive(runId: string): boolean;
  liveRunIds(): string[];
  /** Aborts the segment driving `runId` here, if any. */
  abort(runId: string): void;
  readonly stopping: boolean;
  /** Accepts runs again after a `stop`. */
  open(): void;
  /**
   * Refuses new runs, aborts the live ones and waits up to `graceMs` for them to wind down;
   * returns the interrupted runs.
   */
  stop(graceMs: number): Promise<string[]>;
  idle(): Promise<void>;
}

export function createRunLauncher(deps: DriveDeps): RunLauncher {
  const { db, instanceId, leaseMs } = deps;
  const live = new Map<string, AbortController>();
  const background = new Set<Promise<unknown>>();
  let stopping = false;

  const track = (work: Promise<unknown>) => {
    const settled = work.catch(reportEngineError).finally(() => background.delete(settled));
    background.add(settled);
  };

  // A run can be claimed again while its previous segment is still winding down here (an
  // answer that lands between the park's commit and the segment's end). Such a claim is
  // remembered and continued as soon as that segment is over, not left for lease recovery.
  const rerun = new Set<string>();

  const launch: RunLauncher["launch"] = (runId, prepare) => {
    if (stopping) {
      // Claimed just as we shut down: hand it straight to whichever process recovers it.
      track(releaseRunLeases({ db, leaseOwner: instanceId, runIds: [runId] }));
      return;
    }
    if (live.has(runId)) {
      rerun.add(runId);
      return;
    }
    const controller = new AbortController();
    live.set(runId, controller);
    track(
      (async () => {
        try {
          const segment = await prepare(controller.signal);
          if (segment) await driveRun(deps, segment);
        } finally {
          live.delete(runId);
          if (rerun.delete(runId)) continueRun(runId);
        }
      })(),
    );
  };

  const continueRun: RunLauncher["continueRun"] = (runId, known) =>
    launch(runId, (signal) => prepareContinuation(deps, runId, signal, known));

  const resumeWhenReady: RunLauncher["resumeWhenReady"] = (runId, answer) => {
    if (stopping) return;
    // Copied now: the caller may change its objects once it has been told the answer is stored.
    const resolved = answer && toResumeAnswer(answer.id, answer);
    track(
      (async () => {
        const claimed = await claimParkedRun({
          db,
          runId,
          leaseOwner: instanceId,
          leaseExpiresAt: leaseUntil(leaseMs),
        });
        if (claimed) continueRun(runId, { claimed, resolved });
      })(),
    );
  };

  const leaseForTaking = () =>
    stopping ? undefined : { leaseOwner: instanceId, leaseExpiresAt: leaseUntil(leaseMs) };

  const continueTakenRun: RunLauncher["continueTakenRun"] = (run, answer) =>
    continueRun(run.id, { claimed: run, resolved: toResumeAnswer(answer.id, answer) });

  const idle = async () => {
    while (background.size > 0) await Promise.all([...background]);
  };

  return {
    launch,
    continueRun,
    resumeWhenReady,
    leaseForTaking,
    continueTakenRun,
    track,
    isLive: (runId) => live.has(runId),
    liveRunIds: () => [...live.keys()],
    abort: (runId) => live.get(runId)?.abort(),
    get stopping() {
      return stopping;
    },
    open() {
      stopping = false;
    },
    async stop(graceMs) {
      stopping = true;
      const interrupted = [...live.keys()];
      for (const controller of live.values()) controller.abort();
      // Aborted segments wind down in milliseconds; a tool that ignores its signal must not hold
      // a handover up (its late writes fail once a peer has claimed the run).
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        idle(),
        new Promise((resolve) => {
          grace = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(grace);
      return interrupted;
    },
    idle,
  };
}
