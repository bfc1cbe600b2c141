import { z } from "zod";
import { createRun } from "@/lib/db/create-run";
import { listEventsAfterSeq } from "@/lib/db/events";
import { cancelRunById } from "@/lib/db/run-endings";
import { releaseRunLeases } from "@/lib/db/run-leases";
import { getRunById } from "@/lib/db/runs";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/log/logger";
import { actorInput } from "./actor-input";
import { createAnswerPolicy } from "./answer-policy";
import { type AnswerDeps, answerRequest } from "./answer-request";
import type { DriveDeps } from "./drive-run";
import type { Engine, EngineOptions } from "./engine-types";
import { publishAll } from "./event-writer";
import {
  commitDueDecisions,
  commitHeldDecision,
  type HeldDecisionDeps,
  holdDecision,
  holdDurationMs,
  undoDecision,
} from "./held-decisions";
import { createOverdueStops, defaultStoppedCallGraceMs } from "./overdue-stops";
import { readRequest } from "./read-request";
import { createRunLauncher, leaseUntil } from "./run-launcher";
import { createRunTimers } from "./run-timers";
import {
  cancelStandaloneRequest,
  createStandaloneRequest,
  readStandaloneRequest,
  waitForStandaloneRequest,
} from "./standalone-requests";
import { subscribeThread } from "./subscribe-thread";
import { inSpan } from "./tracing";

const startInput = z.object({
  threadId: z.string().min(1).max(200),
  userId: z.string().min(1).max(200),
  message: z.string().trim().min(1).max(20_000),
  clientMessageId: z.string().min(1).max(200).optional(),
});

/**
 * The durable run engine: the server owns every run. Collaborators are injected so the app,
 * tests and child processes wire it differently; all state that matters lives in the database.
 * The launcher drives the runs held here and the timers keep the rest moving (expiry, takeover
 * of runs whose process died, lease renewal).
 */
export function createEngine(options: EngineOptions): Engine {
  const { db, bus, instanceId } = options;
  // ADR 0022: a crashed instance's runs are taken over within lease + busy sweep (3 s + 1 s).
  const leaseMs = options.leaseMs ?? 3_000;
  const policy = options.policy ?? createAnswerPolicy();
  const deps: DriveDeps = {
    db,
    bus,
    instanceId,
    leaseMs,
    policy,
    textFlushMs: options.textFlushMs ?? 30,
    createClient: options.createClient,
    createToolkit: options.createToolkit,
  };
  const launcher = createRunLauncher(deps);
  const answerDeps: AnswerDeps = {
    db,
    bus,
    policy,
    resumeWhenReady: launcher.resumeWhenReady,
    runs: launcher,
  };
  const answer: Engine["answerRequest"] = (input) =>
    inSpan("toolnexus.answer", { "toolnexus.request_id": input.requestId }, async () => {
      const answered = await answerRequest(answerDeps, input);
      logger.info(
        {
          pendingId: answered.request.id,
          runId: answered.request.runId,
          actorId: input.actor.id,
          status: answered.request.status,
        },
        "request answered",
      );
      return answered;
    });
  const heldDeps: HeldDecisionDeps = {
    ...answerDeps,
    answerRequest: answer,
    holdMs: options.holdMs ?? holdDurationMs(),
  };
  /** Cancels the run on its row and, when that won, stops driving it here and everywhere. */
  const endRun = async (runId: string, actorId: string, overdueCalls = false) => {
    const cancelled = await cancelRunById({ db, runId, actorId, overdueCalls });
    if (cancelled.status !== "cancelled") return cancelled;
    launcher.abort(runId);
    await publishAll(bus, cancelled.events);
    // The run may be driven by another instance, whose tool would otherwise work on until
    // that instance next writes: it aborts the segment, and with it ctx.signal, on hearing this.
    await bus.signal({ type: "run_cancelled", runId });
    return cancelled;
  };
  const overdueStops = createOverdueStops({
    db,
    graceMs: options.stoppedCallGraceMs ?? defaultStoppedCallGraceMs,
    endRun: (runId, actorId) => endRun(runId, actorId, true),
    track: launcher.track,
  });
  const timers = createRunTimers({
    deps,
    answerDeps,
    launcher,
    commitDueDecisions: () => commitDueDecisions(heldDeps),
    stopOverdueRuns: overdueStops.sweep,
    intervals: {
      expiryMs: options.expiryIntervalMs ?? 1_000,
      recoveryMs: options.recoveryIntervalMs ?? 1_000,
      idleRecoveryMs: options.idleRecoveryIntervalMs ?? 15_000,
    },
  });
  let started = false;

  bus.listenSignals((message) => {
    if (message.type === "run_cancelled") launcher.abort(message.runId);
    // A peer handing its runs over: take them now rather than at the next sweep.
    else if (message.type === "runs_released") timers.wakeRecovery({ now: true });
  });
  // Activity anywhere may be a run some instance is about to die in: watch closely for a while.
  bus.listenAll(() => timers.wakeRecovery());

  return {
    async startRun(input) {
      const parsed = startInput.safeParse(input);
      if (!parsed.success) throw new AppError("bad_request:input");
      const { threadId, userId, message, clientMessageId } = parsed.data;
      const model = options.createClient().model;
      const created = await createRun({
        db,
        threadId,
        userId,
        model,
        content: message,
        clientMessageId,
        leaseOwner: instanceId,
        leaseExpiresAt: leaseUntil(leaseMs),
      });
      // Someone else's chat is, to this caller, one that does not exist.
      if (created.status === "missing") throw new AppError("not_found:thread");
      if (created.status === "busy") throw new AppError("conflict:run_busy");
      await publishAll(bus, created.events);
      const { runId, history } = created;
      launcher.launch(runId, async (signal) => ({
        runId,
        threadId,
        userId,
        signal,
        start: { kind: "fresh", prompt: message, history },
      }));
      return { runId };
    },

    answerRequest: answer,

    holdDecision: (input) => holdDecision(heldDeps, input),
    undoDecision: (input) => undoDecision(heldDeps, input),
    commitDecision: (heldId) => commitHeldDecision(heldDeps, heldId),
    commitDueDecisions: () => commitDueDecisions(heldDeps),

    async cancelRun({ runId, actor }) {
      const who = actorInput.safeParse(actor);
      if (!who.success || typeof runId !== "string") throw new AppError("bad_request:input");
      const run = await getRunById({ db, runId });
      if (!run) throw new AppError("not_found:run");
      if (!policy.mayCancel({ actor: who.data, ownerId: run.userId })) throw new AppError("forbidden:run");
      const actorId = who.data.id;
      const cancelled = await endRun(runId, actorId);
      if (cancelled.status === "calls_started") {
        // An answer took the run back to running first: its calls go on, and so does the run,
        // unless they are still running when the grace is over; then the run ends without them.
        await overdueStops.record(runId, actorId);
        throw new AppError("conflict:calls_started");
      }
      if (cancelled.status === "ended") throw new AppError("conflict:run_finished");
    },

    createRequest: (input) => createStandaloneRequest(answerDeps, input),
    readOwnRequest: (input) => readStandaloneRequest(answerDeps, input),
    waitForRequest: (input) => waitForStandaloneRequest(answerDeps, input),
    cancelRequest: (input) => cancelStandaloneRequest(answerDeps, input),

    expireDueRequests: timers.expireDueRequests,
    escalateDueRequests: timers.escalateDueRequests,

    readRequest: (input) => readRequest(answerDeps, input),

    mayAnswer: ({ actor, request }) =>
      policy.mayAnswer({ actor, audience: request.audience, ownerId: request.ownerId }),

    recoverRuns: timers.recoverRuns,

    stopOverdueRuns: overdueStops.sweep,

    subscribe: (input) =>
      subscribeThread({ bus, loadEventsAfter: (query) => listEventsAfterSeq({ db, ...query }) }, input),

    idle: launcher.idle,

    isRunning: () => started,

    async start() {
      if (started) return;
      started = true;
      launcher.open();
      await timers.start();
    },

    async stop() {
      started = false;
      timers.stop();
      overdueStops.clear();
      const interrupted = await launcher.stop(options.stopGraceMs ?? 2_000);
      await releaseRunLeases({ db, leaseOwner: instanceId, runIds: interrupted });
      if (interrupted.length > 0) await bus.signal({ type: "runs_released" });
      await launcher.idle();
    },
  };
}
