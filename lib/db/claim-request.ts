import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import type { Answer } from "@/lib/toolnexus/types";
import { recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { appendEvents } from "./events";
import { toJson } from "./json";
import { engineTransaction } from "./transaction-options";

// Resolving requests: every way a request leaves "open" goes through the same conditional
// update, so each is resolved exactly once whoever races for it.

export type Resolution =
  | { status: "answered"; answer: Answer; actorId: string }
  | { status: "expired" | "cancelled"; actorId: string | null };

/**
 * Moves one open request to its final state, exactly once: the conditional update is the
 * claim, and everything else (answer row, audit entry, event) rides in the same transaction,
 * so a losing claim leaves no trace.
 */
export async function claimRequest({
  db,
  id,
  runId,
  threadId,
  resolution,
}: {
  db: DbClient;
  id: string;
  /** The request's run and thread when the caller has read them already (they never change). */
  runId?: string;
  threadId?: string;
  resolution: Resolution;
}): Promise<
  | { claimed: false }
  | { claimed: true; runId: string; events: ThreadEvent[]; resolvedAt: Date; answeredAt: Date }
> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    // An answer is only worth taking while its run is still parked; and it moves the run's
    // version on, so a Stop that read the run before this commit cannot also succeed (a Stop
    // that commits first has ended the run and closed the request). The run's row is written
    // first, as a cancel writes it first, so the two queue on it instead of deadlocking.
    if (resolution.status === "answered" && !(await takeAnswerForRun({ tx, id, runId }))) {
      return { claimed: false as const };
    }
    if (!(await claimOpenRequest({ tx, id, status: resolution.status, resolvedAt: now }))) {
      return { claimed: false as const };
    }
    const owner =
      runId !== undefined && threadId !== undefined
        ? { runId, threadId }
        : await tx.request.findUniqueOrThrow({ where: { id }, select: { runId: true, threadId: true } });
    const answer: Omit<Answer, "id"> =
      resolution.status === "answered"
        ? resolution.answer
        : { ok: false, reason: resolution.status === "expired" ? "expired" : "cancelled" };
    const { events, answeredAt } = await recordResolution({ tx, id, ...owner, answer, resolution });
    return { claimed: true as const, runId: owner.runId, events, resolvedAt: now, answeredAt };
  }, engineTransaction);
}

async function takeAnswerForRun({ tx, id, runId }: { tx: DbTx; id: string; runId?: string }) {
  const run = runId ?? (await tx.request.findUniqueOrThrow({ where: { id }, select: { runId: true } })).runId;
  const parked = await tx.run.updateMany({
    where: { id: run, status: "pending" },
    data: { version: { increment: 1 } },
  });
  return parked.count === 1;
}

/** The claim itself: true when this transaction is the one that moved the request out of "open". */
async function claimOpenRequest({
  tx,
  id,
  status,
  resolvedAt,
}: {
  tx: DbTx;
  id: string;
  status: Resolution["status"];
  resolvedAt: Date;
}): Promise<boolean> {
  const claim = await tx.request.updateMany({ where: { id, status: "open" }, data: { status, resolvedAt } });
  return claim.count === 1;
}

async function recordResolution({
  tx,
  id,
  threadId,
  runId,
  answer,
  resolution,
}: {
  tx: DbTx;
  id: string;
  threadId: string;
  runId: string;
  answer: Omit<Answer, "id">;
  resolution: Resolution;
}): Promise<{ events: ThreadEvent[]; answeredAt: Date }> {
  const row = await tx.answer.create({
    data: {
      requestRowId: id,
      actorId: resolution.actorId,
      ok: answer.ok,
      ...(answer.data ? { data: toJson(answer.data) } : {}),
      reason: answer.reason ?? null,
    },
    select: { createdAt: true },
  });
  await recordAuditEntry({
    tx,
    actorId: resolution.actorId,
    action: `request.${resolution.status}`,
    targetType: "request",
    targetId: id,
    detail: { ok: answer.ok, ...(answer.reason ? { reason: answer.reason } : {}) },
  });
  const events = await appendEvents({
    tx,
    threadId,
    runId,
    bodies: [
      {
        type: "request_resolved",
        id,
        status: resolution.status,
        ok: answer.ok,
        ...(answer.reason ? { reason: answer.reason } : {}),
        ...(resolution.actorId ? { actorId: resolution.actorId } : {}),
      },
    ],
  });
  return { events, answeredAt: row.createdAt };
}

/** Inside a cancel: every open request of the run is answered "cancelled" by the system. */
export async function cancelOpenRequestsByRun({
  tx,
  runId,
  threadId,
  actorId,
}: {
  tx: DbTx;
  runId: string;
  threadId: string;
  actorId: string;
}): Promise<ThreadEvent[]> {
  const open = await tx.request.findMany({ where: { runId, status: "open" }, select: { id: true } });
  const events: ThreadEvent[] = [];
  for (const { id } of open) {
    if (!(await claimOpenRequest({ tx, id, status: "cancelled", resolvedAt: new Date() }))) continue;
    const recorded = await recordResolution({
      tx,
      id,
      threadId,
      runId,
      answer: { ok: false, reason: "cancelled" },
      resolution: { status: "cancelled", actorId },
    });
    events.push(...recorded.events);
  }
  return events;
}
