import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import type { Answer } from "@/lib/toolnexus/types";
import { recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { appendEvents } from "./events";
import { hotSqlOf, sql, sqlBool, sqlJson, sqlTable, sqlTime } from "./hot-sql";
import { hotTransaction } from "./hot-transaction";
import { newRowId } from "./row-id";
import { claimParkedRunByLastAnswer } from "./run-leases";
import type { StoredRun } from "./runs";

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
  toolName,
  resolution,
  resumeAs,
}: {
  db: DbClient;
  id: string;
  /**
   * The request's run and thread when the caller has read them already (they never change); a
   * null run is a request made through the HTTP API, which no run counts or waits on.
   */
  runId?: string | null;
  threadId?: string;
  /** The request's tool, copied onto its answer for the audit; read with the rest when missing. */
  toolName?: string;
  resolution: Resolution;
  /**
   * For an answer: the lease under which to take the run back to running in this same
   * transaction when this answer settles its last open request (`claimParkedRunByLastAnswer`).
   */
  resumeAs?: { leaseOwner: string; leaseExpiresAt: Date };
}): Promise<
  | { claimed: false }
  | {
      claimed: true;
      runId: string | null;
      events: ThreadEvent[];
      resolvedAt: Date;
      answeredAt: Date;
      /** The run as this transaction took it back to running under `resumeAs`, if it did. */
      resumed: StoredRun | null;
    }
> {
  try {
    return await hotTransaction(db, async (tx) => {
      const now = new Date();
      const owner =
        runId !== undefined && threadId !== undefined && toolName !== undefined
          ? { runId, threadId, toolName }
          : await readRequestOwner({ tx, id });
      if (!owner) return { claimed: false as const };
      const answered = resolution.status === "answered";
      const resumed =
        owner.runId !== null && answered && resumeAs
          ? await claimParkedRunByLastAnswer({ tx, runId: owner.runId, requestRowId: id, ...resumeAs })
          : null;
      if (owner.runId !== null && !resumed && !(await takeOneOffRun({ tx, runId: owner.runId, answered }))) {
        return { claimed: false as const };
      }
      // The run's count is already written: a lost claim rolls it back by throwing.
      if (!(await claimOpenRequest({ tx, id, status: resolution.status, resolvedAt: now })))
        throw new LostClaim();
      const answer: Omit<Answer, "id"> =
        resolution.status === "answered"
          ? resolution.answer
          : { ok: false, reason: resolution.status === "expired" ? "expired" : "cancelled" };
      const { events, answeredAt } = await recordResolution({ tx, id, ...owner, answer, resolution });
      return { claimed: true as const, runId: owner.runId, events, resolvedAt: now, answeredAt, resumed };
    });
  } catch (error) {
    if (error instanceof LostClaim) return { claimed: false };
    throw error;
  }
}

class LostClaim extends Error {}

async function readRequestOwner({ tx, id }: { tx: DbTx; id: string }) {
  const [row] = await hotSqlOf(tx).query<{ runId: string | null; threadId: string; toolName: string }>(
    sql`SELECT "runId", "threadId", "toolName" FROM ${sqlTable("Request")} WHERE "id" = ${id}`,
  );
  return row ?? null;
}

/**
 * Writes the run's row before the request's, as a cancel does, so the two queue on it instead of
 * deadlocking: one fewer open request, and for an answer a new version of a run still parked
 * (an answer is only worth taking while its run waits, and a Stop that read the run before this
 * commit must not also succeed; a Stop that commits first has ended the run and closed the request).
 */
async function takeOneOffRun({ tx, runId, answered }: { tx: DbTx; runId: string; answered: boolean }) {
  const now = sqlTime(new Date());
  const changed = await hotSqlOf(tx).execute(
    answered
      ? sql`UPDATE ${sqlTable("Run")} SET "openRequests" = "openRequests" - 1, "version" = "version" + 1, "updatedAt" = ${now} WHERE "id" = ${runId} AND "status" = 'pending'`
      : sql`UPDATE ${sqlTable("Run")} SET "openRequests" = "openRequests" - 1, "updatedAt" = ${now} WHERE "id" = ${runId}`,
  );
  return changed === 1;
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
  const at = sqlTime(resolvedAt);
  const claimed = await hotSqlOf(tx).execute(
    sql`UPDATE ${sqlTable("Request")} SET "status" = ${status}, "resolvedAt" = ${at}, "updatedAt" = ${at} WHERE "id" = ${id} AND "status" = 'open'`,
  );
  return claimed === 1;
}

async function recordResolution({
  tx,
  id,
  threadId,
  runId,
  toolName,
  answer,
  resolution,
}: {
  tx: DbTx;
  id: string;
  threadId: string;
  runId: string | null;
  toolName: string;
  answer: Omit<Answer, "id">;
  resolution: Resolution;
}): Promise<{ events: ThreadEvent[]; answeredAt: Date }> {
  const answeredAt = new Date();
  await hotSqlOf(tx).execute(sql`
    INSERT INTO ${sqlTable("Answer")} ("id", "requestRowId", "actorId", "ok", "data", "reason", "toolName", "createdAt")
    VALUES (${newRowId()}, ${id}, ${resolution.actorId}, ${sqlBool(answer.ok)},
      ${sqlJson(answer.data ? JSON.stringify(answer.data) : null)}, ${answer.reason ?? null}, ${toolName},
      ${sqlTime(answeredAt)})`);
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
  return { events, answeredAt };
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
  const open = await tx.request.findMany({
    where: { runId, status: "open" },
    select: { id: true, toolName: true },
  });
  const events: ThreadEvent[] = [];
  let closed = 0;
  for (const { id, toolName } of open) {
    if (!(await claimOpenRequest({ tx, id, status: "cancelled", resolvedAt: new Date() }))) continue;
    closed += 1;
    const recorded = await recordResolution({
      tx,
      id,
      threadId,
      runId,
      toolName,
      answer: { ok: false, reason: "cancelled" },
      resolution: { status: "cancelled", actorId },
    });
    events.push(...recorded.events);
  }
  if (closed > 0) {
    await tx.run.update({ where: { id: runId }, data: { openRequests: { decrement: closed } } });
  }
  return events;
}
