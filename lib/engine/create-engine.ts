import { z } from "zod";
import { listEventsAfterSeq } from "@/lib/db/events";
import { listDueRequests } from "@/lib/db/requests";
import { cancelRunById } from "@/lib/db/run-endings";
import {
  claimLapsedRun,
  claimParkedRun,
  listOrphanedRuns,
  releaseRunLeases,
  renewRunLeases,
} from "@/lib/db/run-leases";
import { createRun, getRunById, getThreadOwnerById } from "@/lib/db/runs";
import { AppError } from "@/lib/errors";
import type { Answer } from "@/lib/toolnexus/types";
import { actorInput } from "./actor-input";
import { createAnswerPolicy } from "./answer-policy";
import { type AnswerDeps, answerRequest } from "./answer-request";
import { copyAsStored, type KnownState, prepareContinuation } from "./continue-run";
import { type DriveDeps, driveRun, type Segment } from "./drive-run";
import type { Engine, EngineOptions } from "./engine-types";
import { publishAll } from "./event-writer";
import { expireRequest } from "./expire-request";
import { readRequest } from "./read-request";
import { subscribeThread } from "./subscribe-thread";

const startInput = z.object({
  threadId: z.string().min(1).max(200),
  userId: z.string().min(1).max(200),
  message: z.string().trim().min(1).max(20_000),
});

function report(error: unknown) {
  console.error("[engine]", error);
}

/**
 * The durable run engine: the server owns every run. Collaborators are injected so the app,
 * tests and child processes wire it differently; all state that matters lives in the database.
 */
export function createEngine(options: EngineOptions): Engine {
  const { db, bus, instanceId } = options;
  const leaseMs = options.leaseMs ?? 15_000;
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
  const live = new Map<string, AbortController>();
  const background = new Set<Promise<unknown>>();
  let timers: NodeJS.Timeout[] = [];
  let stopping = false;
  let started = false;
  const leaseUntil = () => new Date(Date.now() + leaseMs);

  const track = (work: Promise<unknown>) => {
    const settled = work.catch(report).finally(() => background.delete(settled));
    background.add(settled);
  };

  // A run can be claimed again while its previous segment is still winding down here (an
  // answer that lands between the park's commit and the segment's end). Such a claim is
  // remembered and continued as soon as that segment is over, not left for lease recovery.
  const rerun = new Set<string>();

  /** Runs a segment of a run we hold; one segment per run at a time in this process. */
  const launch = (runId: string, prepare: (signal: AbortSignal) => Promise<Segment | null>) => {
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

  const continueRun = (runId: string, known?: KnownState) =>
    launch(runId, (signal) => prepareContinuation(deps, runId, signal, known));

  const resumeWhenReady = (runId: string, answer?: Answer) => {
    if (stopping) return;
    // Copied now: the caller may change its objects once it has been told the answer is stored.
    const resolved = answer && copyAsStored(answer);
    track(
      (async () => {
        const claimed = await claimParkedRun({
          db,
          runId,
          leaseOwner: instanceId,
          leaseExpiresAt: leaseUntil(),
        });
        if (claimed) continueRun(runId, { claimed, resolved });
      })(),
    );
  };

  const answerDeps: AnswerDeps = { db, bus, policy, resumeWhenReady };

  const expireDueRequests = async () => {
    let expired = 0;
    for (const due of await listDueRequests({ db, now: new Date() })) {
      if (await expireRequest(answerDeps, due)) expired += 1;
    }
    return expired;
  };

  const recoverRuns = async () => {
    let taken = 0;
    for (const run of await listOrphanedRuns({ db, now: new Date() })) {
      if (stopping || live.has(run.id)) continue;
      if (run.status === "pending") {
        resumeWhenReady(run.id);
        continue;
      }
      const now = new Date();
      if (
        await claimLapsedRun({ db, runId: run.id, leaseOwner: instanceId, leaseExpiresAt: leaseUntil(), now })
      ) {
        taken += 1;
        continueRun(run.id);
      }
    }
    return taken;
  };

  const every = (ms: number, task: () => Promise<unknown>) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      task()
        .catch(report)
        .finally(() => {
          busy = false;
        });
    }, ms);
    timers.push(timer);
  };

  bus.listenSignals((message) => {
    if (message.type === "run_cancelled") live.get(message.runId)?.abort();
  });

  const idle = async () => {
    while (background.size > 0) await Promise.all([...background]);
  };

  return {
    async startRun(input) {
      const parsed = startInput.safeParse(input);
      if (!parsed.success) throw new AppError("bad_request:input");
      const { threadId, userId, message } = parsed.data;
      const thread = await getThreadOwnerById({ db, threadId });
      if (!thread) throw new AppError("not_found:thread");
      if (thread.userId !== userId) throw new AppError("forbidden:thread");
      const model = options.createClient().model;
      const created = await createRun({
        db,
        threadId,
        userId,
        model,
        content: message,
        leaseOwner: instanceId,
        leaseExpiresAt: leaseUntil(),
      });
      if (created.busy) throw new AppError("conflict:run_busy");
      await publishAll(bus, created.events);
      const { runId, history } = created;
      launch(runId, async (signal) => ({
        runId,
        threadId,
        userId,
        signal,
        start: { kind: "fresh", prompt: message, history },
      }));
      return { runId };
    },

    answerRequest: (input) => answerRequest(answerDeps, input),

    async cancelRun({ runId, actor }) {
      const who = actorInput.safeParse(actor);
      if (!who.success || typeof runId !== "string") throw new AppError("bad_request:input");
      const run = await getRunById({ db, runId });
      if (!run) throw new AppError("not_found:run");
      if (!policy.mayCancel({ actor: who.data, ownerId: run.userId })) throw new AppError("forbidden:run");
      const events = await cancelRunById({ db, runId, actorId: who.data.id, version: run.version });
      if (!events) {
        const now = await getRunById({ db, runId });
        const live = now?.status === "running" || now?.status === "pending";
        throw new AppError(live ? "conflict:run_changed" : "conflict:run_finished");
      }
      live.get(runId)?.abort();
      await publishAll(bus, events);
      // The run may be driven by another instance, whose tool would otherwise work on until
      // that instance next writes: it aborts the segment, and with it ctx.signal, on hearing this.
      await bus.signal({ type: "run_cancelled", runId });
    },

    expireDueRequests,

    readRequest: (input) => readRequest(answerDeps, input),

    mayAnswer: ({ actor, request }) =>
      policy.mayAnswer({ actor, audience: request.audience, ownerId: request.ownerId }),

    recoverRuns,

    subscribe: (input) =>
      subscribeThread({ bus, loadEventsAfter: (query) => listEventsAfterSeq({ db, ...query }) }, input),

    idle,

    async start() {
      if (started) return;
      started = true;
      stopping = false;
      await recoverRuns();
      await expireDueRequests();
      every(options.expiryIntervalMs ?? 1_000, expireDueRequests);
      every(options.recoveryIntervalMs ?? leaseMs, recoverRuns);
      every(Math.max(50, Math.floor(leaseMs / 3)), () =>
        renewRunLeases({
          db,
          leaseOwner: instanceId,
          runIds: [...live.keys()],
          leaseExpiresAt: leaseUntil(),
        }),
      );
    },

    async stop() {
      stopping = true;
      started = false;
      for (const timer of timers) clearInterval(timer);
      timers = [];
      const interrupted = [...live.keys()];
      for (const controller of live.values()) controller.abort();
      await idle();
      await releaseRunLeases({ db, leaseOwner: instanceId, runIds: interrupted });
    },
  };
}
