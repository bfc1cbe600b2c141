import { parkRun, type Suspension } from "@/lib/db/park-run";
import { finishRun } from "@/lib/db/run-endings";
import { releaseRunLeases } from "@/lib/db/run-leases";
import { logger } from "@/lib/log/logger";
import type { RunResult } from "@/lib/toolnexus/types";
import { escalationFor, groupAddressFor } from "./answer-policy";
import type { DriveDeps, Segment } from "./drive-run";
import type { EventWriter } from "./event-writer";

// How a run segment ends: parked on its open requests or finished when the loop returns (each
// one write through the segment's event writer, so the events it still holds go out in the
// same transaction as the state they describe), or paused when the database went away under it.

/** The loop halted on suspensions: the run parks with one request per suspended slot. */
export async function parkSegment(
  deps: DriveDeps,
  segment: Segment,
  writer: EventWriter,
  result: RunResult,
  stored: { withMessages: boolean; storedMessages: number },
): Promise<void> {
  const checkpoint = result.checkpoint!;
  const suspensions: Suspension[] = [];
  for (const slot of checkpoint.slots) {
    if (slot.state.status !== "suspended") continue;
    const { request } = slot.state;
    const audience = deps.policy.audienceFor(request);
    const group = audience === "group" ? groupAddressFor(request) : undefined;
    const escalation = escalationFor(request);
    suspensions.push({
      request,
      toolCallId: slot.call.id,
      toolName: slot.call.name,
      args: slot.call.args,
      audience,
      ...(group ? { group } : {}),
      ...(escalation.length > 0 ? { escalation } : {}),
    });
  }
  await writer.storeWith((bodies) =>
    parkRun({
      db: deps.db,
      runId: segment.runId,
      threadId: segment.threadId,
      ownerId: segment.userId,
      leaseOwner: deps.instanceId,
      checkpoint,
      suspensions,
      ...stored,
      bodies,
    }),
  );
  logger.info(
    { runId: segment.runId, threadId: segment.threadId, pendingIds: suspensions.map((s) => s.request.id) },
    "run parked",
  );
}

/** The loop ended (done, or out of turns): the run finishes with its transcript and usage. */
export async function finishSegment(
  deps: DriveDeps,
  segment: Segment,
  writer: EventWriter,
  result: RunResult,
  storedMessages: number,
) {
  const status = result.status === "done" ? "done" : "incomplete";
  await writer.storeWith((bodies) =>
    finishRun({
      db: deps.db,
      runId: segment.runId,
      threadId: segment.threadId,
      leaseOwner: deps.instanceId,
      status,
      messages: result.transcript,
      storedMessages,
      usage: result.usage,
      turns: result.turns,
      bodies: [...bodies, { type: "run_finished", status, text: result.text }],
    }),
  );
  logger.info(
    { runId: segment.runId, threadId: segment.threadId, status, turns: result.turns },
    "run finished",
  );
}

/**
 * Hands a paused run to recovery: its lease is released if the database already answers again
 * (any instance then takes it over within a sweep), else it lapses by itself. Either way the
 * takeover goes on from the last stored safe point and supersedes what this segment logged after it.
 */
export async function pauseSegment(
  { db, bus, instanceId }: DriveDeps,
  { runId, threadId }: Segment,
  cause: unknown,
) {
  logger.warn({ err: cause, runId, threadId }, "run paused: the database is unavailable");
  try {
    await releaseRunLeases({ db, leaseOwner: instanceId, runIds: [runId] });
    await bus.signal({ type: "runs_released" });
  } catch {
    // Still away: the lease lapses on its own.
  }
}
