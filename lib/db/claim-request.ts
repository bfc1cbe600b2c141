import "server-only";
import type { ThreadEvent } from "@/lib/domain/events";
import { answerWithRun } from "./answer-with-run";
import type { DbClient, DbTx } from "./db-types";
import { hotSqlOf, sql, sqlTable, sqlTime } from "./hot-sql";
import { hotTransaction } from "./hot-transaction";
import { claimParkedRunByLastAnswer } from "./run-leases";
import type { StoredRun } from "./runs";
import { type Resolution, settleOpenRequest } from "./settle-request";

export type { Resolution };

// Resolving requests: every way a request leaves "open" goes through the same conditional
// update, so each is resolved exactly once whoever races for it.

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
  // The owner never changes, so it may be read apart from the claim.
  const owner =
    runId !== undefined && threadId !== undefined && toolName !== undefined
      ? { runId, threadId, toolName }
      : await readRequestOwner({ db, id });
  if (!owner) return { claimed: false };
  if (owner.runId !== null && resolution.status === "answered" && hotSqlOf(db).provider === "postgres") {
    const now = new Date();
    const taken = await answerWithRun({
      db,
      id,
      ...owner,
      runId: owner.runId,
      resolution,
      resolvedAt: now,
      resumeAs,
    });
    if (taken.status === "run_not_waiting" || taken.status === "lost") return { claimed: false };
    if (taken.status === "settled") {
      const { events, answeredAt, resumed } = taken;
      return { claimed: true, runId: owner.runId, events, resolvedAt: now, answeredAt, resumed };
    }
    // "crowded": the steps below, in a transaction.
  }
  try {
    return await hotTransaction(db, async (tx) => {
      const now = new Date();
      const answered = resolution.status === "answered";
      const resumed =
        owner.runId !== null && answered && resumeAs
          ? await claimParkedRunByLastAnswer({ tx, runId: owner.runId, requestRowId: id, ...resumeAs })
          : null;
      if (owner.runId !== null && !resumed && !(await takeOneOffRun({ tx, runId: owner.runId, answered }))) {
        return { claimed: false as const };
      }
      // The run's count is already written: a lost claim rolls it back by throwing.
      const settled = await settleOpenRequest({ tx, id, ...owner, resolution, resolvedAt: now });
      if (!settled) throw new LostClaim();
      const { events, answeredAt } = settled;
      return { claimed: true as const, runId: owner.runId, events, resolvedAt: now, answeredAt, resumed };
    });
  } catch (error) {
    if (error instanceof LostClaim) return { claimed: false };
    throw error;
  }
}

class LostClaim extends Error {}

async function readRequestOwner({ db, id }: { db: DbClient; id: string }) {
  const [row] = await hotSqlOf(db).query<{ runId: string | null; threadId: string; toolName: string }>(
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
    const settled = await settleOpenRequest({
      tx,
      id,
      threadId,
      runId,
      toolName,
      resolution: { status: "cancelled", actorId },
      resolvedAt: new Date(),
    });
    if (!settled) continue;
    closed += 1;
    events.push(...settled.events);
  }
  if (closed > 0) {
    await tx.run.update({ where: { id: runId }, data: { openRequests: { decrement: closed } } });
  }
  return events;
}
