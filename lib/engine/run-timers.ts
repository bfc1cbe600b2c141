import { listDueRequests } from "@/lib/db/requests";
import { claimLapsedRun, listOrphanedRuns, renewRunLeases } from "@/lib/db/run-leases";
import type { AnswerDeps } from "./answer-request";
import type { DriveDeps } from "./drive-run";
import { fireDueEscalationSteps } from "./escalate-requests";
import { expireRequest } from "./expire-request";
import { scheduleRecovery } from "./recovery-schedule";
import { leaseUntil, type RunLauncher, reportEngineError } from "./run-launcher";

export interface RunTimerIntervals {
  /** How often expired requests are swept. */
  expiryMs: number;
  /** How often runs nobody is driving are looked for while any run is live or the bus is busy. */
  recoveryMs: number;
  /** The same when nothing runs anywhere (ADR 0022). */
  idleRecoveryMs: number;
}

/**
 * What the engine does by the clock: answer requests whose time is up, take over runs whose
 * process died (their lease lapsed, or they were parked with every request settled), and renew
 * the leases of the runs driven here.
 */
export interface RunTimers {
  /** Answers every due request `{ ok: false, reason: "expired" }`; returns how many. */
  expireDueRequests(): Promise<number>;
  /** Fires every due escalation step (ADR 0093); returns how many this process fired. */
  escalateDueRequests(): Promise<number>;
  /** Takes over runs nobody is driving; returns how many. */
  recoverRuns(): Promise<number>;
  /** Asks for a recovery sweep within `recoveryMs`, or at once (a peer released its runs). */
  wakeRecovery(options?: { now?: boolean }): void;
  /** Runs one recovery and one expiry sweep, then repeats all three on their intervals. */
  start(): Promise<void>;
  stop(): void;
}

export function createRunTimers({
  deps,
  answerDeps,
  launcher,
  intervals,
  commitDueDecisions,
  stopOverdueRuns,
}: {
  deps: DriveDeps;
  answerDeps: AnswerDeps;
  launcher: RunLauncher;
  intervals: RunTimerIntervals;
  /** Commits held decisions whose Undo window has passed (held-decisions.ts), on the expiry beat. */
  commitDueDecisions?: () => Promise<number>;
  /** Ends runs whose refused Stop is due (overdue-stops.ts), on the expiry beat. */
  stopOverdueRuns?: () => Promise<number>;
}): RunTimers {
  const { db, instanceId, leaseMs } = deps;
  let timers: NodeJS.Timeout[] = [];
  let recovery: ReturnType<typeof scheduleRecovery> | undefined;

  const expireDueRequests = async () => {
    let expired = 0;
    for (const due of await listDueRequests({ db, now: new Date() })) {
      if (await expireRequest(answerDeps, due)) expired += 1;
    }
    return expired;
  };

  const escalateDueRequests = () => fireDueEscalationSteps(answerDeps);

  // One beat for everything due on the clock: a ladder's steps first, so that a step due before
  // the expiry (an instance was down through both) still fires, late, before the request expires.
  const sweepDue = async () => {
    await escalateDueRequests();
    await expireDueRequests();
    await stopOverdueRuns?.();
  };

  const sweepRuns = async () => {
    let taken = 0;
    const { orphans, anyRunning } = await listOrphanedRuns({ db, now: new Date() });
    for (const run of orphans) {
      if (launcher.stopping || launcher.isLive(run.id)) continue;
      if (run.status === "pending") {
        launcher.resumeWhenReady(run.id);
        continue;
      }
      const now = new Date();
      if (
        await claimLapsedRun({
          db,
          runId: run.id,
          leaseOwner: instanceId,
          leaseExpiresAt: leaseUntil(leaseMs),
          now,
        })
      ) {
        taken += 1;
        launcher.continueRun(run.id, { takeover: true });
      }
    }
    return { taken, busy: anyRunning || orphans.length > 0 };
  };

  // A task still busy when its next tick comes skips that tick rather than running twice.
  const every = (ms: number, task: () => Promise<unknown>) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      task()
        .catch(reportEngineError)
        .finally(() => {
          busy = false;
        });
    }, ms);
    timers.push(timer);
  };

  return {
    expireDueRequests,
    escalateDueRequests,
    recoverRuns: async () => (await sweepRuns()).taken,
    wakeRecovery: (options) => recovery?.wake(options),
    async start() {
      await sweepRuns();
      await sweepDue();
      every(intervals.expiryMs, sweepDue);
      if (commitDueDecisions) every(intervals.expiryMs, commitDueDecisions);
      recovery = scheduleRecovery({
        sweep: sweepRuns,
        busyMs: intervals.recoveryMs,
        idleMs: intervals.idleRecoveryMs,
        onError: reportEngineError,
      });
      every(Math.max(50, Math.floor(leaseMs / 3)), () =>
        renewRunLeases({
          db,
          leaseOwner: instanceId,
          runIds: launcher.liveRunIds(),
          leaseExpiresAt: leaseUntil(leaseMs),
        }),
      );
    },
    stop() {
      for (const timer of timers) clearInterval(timer);
      timers = [];
      recovery?.stop();
      recovery = undefined;
    },
  };
}
