import type { ThreadEvent } from "@/lib/domain/events";
import type { Actor } from "@/lib/domain/roles";
import type { Engine } from "@/lib/engine/engine-types";
import type { ToolMarks } from "./bench-agent";

/** `performance.now()` readings of one start → park → answer → finish cycle. */
export interface CycleTimings {
  startedAt: number;
  suspendedAt: number;
  pendingDeliveredAt: number;
  answerSentAt: number;
  answerReturnedAt: number;
  retriedAt: number;
  finishedAt: number;
}

type Seen = { at: number; event: ThreadEvent };

const STEP_TIMEOUT_MS = 60_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * One full cycle as the app drives it: a viewer subscribes to the thread, the owner starts a
 * run, the run parks on an approval, a reviewer answers it, the run finishes. Throws if the
 * run ends any other way, so a broken engine fails the bench instead of looking fast.
 */
export async function runParkResumeCycle({
  engine,
  marks,
  threadId,
  owner,
  reviewer,
}: {
  engine: Engine;
  marks: Map<string, ToolMarks>;
  threadId: string;
  owner: Actor;
  reviewer: Actor;
}): Promise<CycleTimings> {
  const controller = new AbortController();
  const waiters = new Map<string, (seen: Seen) => void>();
  const seen = (type: string) => new Promise<Seen>((resolve) => waiters.set(type, resolve));
  const pendingSeen = seen("pending");
  const finishedSeen = seen("run_finished");
  const events = engine.subscribe({ threadId, signal: controller.signal });
  // The first `next()` registers the live listener synchronously, before the run can start.
  const watching = (async () => {
    for await (const event of events) {
      const at = performance.now();
      // A run that ends before it parks settles the pending wait too, which then fails loudly.
      if (event.type === "run_finished") waiters.get("pending")?.({ at, event });
      waiters.get(event.type)?.({ at, event });
      if (event.type === "run_finished") return;
    }
  })();

  try {
    const startedAt = performance.now();
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "deploy please" });
    const parked = await within(pendingSeen, `pending event for run ${runId}`);
    if (parked.event.type !== "pending" || parked.event.requests.length !== 1)
      throw new Error(`run ${runId} did not park on one request: ${JSON.stringify(parked.event)}`);
    const answerSentAt = performance.now();
    await engine.answerRequest({
      requestId: parked.event.requests[0]!.id,
      answer: { ok: true },
      actor: reviewer,
    });
    const answerReturnedAt = performance.now();
    const finished = await within(finishedSeen, `run_finished event for run ${runId}`);
    if (finished.event.type !== "run_finished" || finished.event.status !== "done")
      throw new Error(`run ${runId} ended ${JSON.stringify(finished.event)}`);
    await watching;
    const mark = marks.get(runId);
    marks.delete(runId);
    if (mark?.suspendedAt === undefined || mark.retriedAt === undefined)
      throw new Error(`run ${runId}: the tool was not suspended and retried`);
    return {
      startedAt,
      suspendedAt: mark.suspendedAt,
      pendingDeliveredAt: parked.at,
      answerSentAt,
      answerReturnedAt,
      retriedAt: mark.retriedAt,
      finishedAt: finished.at,
    };
  } finally {
    controller.abort();
  }
}
