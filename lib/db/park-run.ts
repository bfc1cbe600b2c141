import "server-only";
import type { Audience, EventBody, ThreadEvent } from "@/lib/domain/events";
import type { Checkpoint, Request } from "@/lib/toolnexus/types";
import type { DbClient } from "./db-types";
import { appendEvents } from "./events";
import { toJson } from "./json";
import { appendMissingMessages } from "./messages";
import { markPropertyOrder } from "./property-order";
import { toRequestView } from "./requests";
import { checkpointColumns } from "./runs";
import { engineTransaction } from "./transaction-options";

export class ReusedRequestIdError extends Error {
  constructor(readonly requestId: string) {
    super(
      `A tool asked again with the request id "${requestId}", which this run has already used; ` +
        "the run was stopped so that the earlier answer is not applied to the new request.",
    );
    this.name = "ReusedRequestIdError";
  }
}

export interface Suspension {
  request: Request;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  audience: Audience;
}

/**
 * Parks a halted run in one transaction: run → pending with its checkpoint, one request row
 * per suspension not already parked, the transcript, the run's events not yet stored (`bodies`)
 * and then the `pending` event listing every open request of the halted turn. Returns null when
 * this process no longer holds the run.
 */
export async function parkRun({
  db,
  runId,
  threadId,
  ownerId,
  leaseOwner,
  checkpoint,
  suspensions,
  withMessages = true,
  storedMessages,
  bodies = [],
}: {
  db: DbClient;
  runId: string;
  threadId: string;
  ownerId: string;
  leaseOwner: string;
  checkpoint: Checkpoint;
  suspensions: Suspension[];
  /** False when the checkpoint's transcript is already stored. */
  withMessages?: boolean;
  /**
   * How many messages of the transcript are stored, as the segment holding the lease knows from
   * its own safe points (saves reading the count back; a wrong one fails on the unique seq).
   */
  storedMessages?: number;
  /** Events of the halting turn still to be stored; they go before `pending`. */
  bodies?: EventBody[];
}): Promise<ThreadEvent[] | null> {
  return db.$transaction(async (tx) => {
    // Counted as if every suspension opened a request now, which is what a park nearly always
    // does; the few already open are taken off again below, before anything can read the count.
    const held = await tx.run.updateMany({
      where: { id: runId, status: "running", leaseOwner },
      data: {
        status: "pending",
        ...checkpointColumns(checkpoint),
        leaseOwner: null,
        leaseExpiresAt: null,
        version: { increment: 1 },
        openRequests: { increment: suspensions.length },
      },
    });
    if (held.count !== 1) return null;
    if (withMessages)
      await appendMissingMessages({
        tx,
        threadId,
        runId,
        messages: checkpoint.messages,
        known: storedMessages,
      });
    const wireIds = suspensions.map((s) => s.request.id);
    const existing = await tx.request.findMany({ where: { runId, requestId: { in: wireIds } } });
    // A waiting call always has an open row or none: a resolved one means a tool reused a fixed
    // id in a later turn, and its old answer must never be taken for the new question.
    const reused = existing.find((row) => row.status !== "open");
    if (reused) throw new ReusedRequestIdError(reused.requestId);
    const known = new Set(existing.map((row) => row.requestId));
    const fresh = suspensions.filter((s) => !known.has(s.request.id));
    const created =
      fresh.length === 0
        ? []
        : await tx.request.createManyAndReturn({
            data: fresh.map((s) => ({
              requestId: s.request.id,
              runId,
              threadId,
              ownerId,
              toolCallId: s.toolCallId,
              toolName: s.toolName,
              args: toJson(s.args),
              kind: s.request.kind,
              prompt: s.request.prompt,
              url: s.request.url ?? null,
              ...(s.request.data ? { data: toJson(s.request.data) } : {}),
              expiresAt: s.request.expiresAt ? new Date(s.request.expiresAt) : null,
              payload: toJson(markPropertyOrder(s.request)),
              audience: s.audience,
            })),
          });
    const counted = suspensions.length - created.length;
    if (counted > 0) {
      await tx.run.update({ where: { id: runId }, data: { openRequests: { decrement: counted } } });
    }
    const open = [...existing.filter((row) => row.status === "open"), ...created];
    const order = new Map(wireIds.map((id, index) => [id, index]));
    open.sort((a, b) => order.get(a.requestId)! - order.get(b.requestId)!);
    return appendEvents({
      tx,
      threadId,
      runId,
      bodies: [...bodies, { type: "pending", requests: open.map(toRequestView) }],
      openedRequestRowIds: new Set(created.map((row) => row.id)),
    });
  }, engineTransaction);
}
