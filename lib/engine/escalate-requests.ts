import {
  claimEscalationStep,
  type DueEscalationStep,
  listDueEscalationSteps,
} from "@/lib/db/escalation-steps";
import { type BareRequest, getBareRequestById } from "@/lib/db/requests";
import { describeFiredStep } from "@/lib/domain/escalation";
import type { WebhookOccurrence } from "@/lib/domain/webhooks";
import type { AnswerDeps } from "./answer-request";
import { expireRequest } from "./expire-request";
import { recordAnswer } from "./record-answer";

// Escalation ladders (ADR 0093), fired on the expiry sweep's beat in every process. A step is
// claimed by one conditional update, in the transaction that writes its audit entry, webhook
// messages and mail notice, so it fires once across instances and restarts. A step that
// declines or expires then closes the request through the one answer path (`recordAnswer`, as
// the system) or the expiry path; those claim the request once, so an instance that died in
// between leaves the step to the next sweep, which does it again safely.

/** What a fired step announces to webhooks: `request.reminded` or `request.escalated`. */
function occurrencesOf(step: DueEscalationStep, request: BareRequest): WebhookOccurrence[] {
  const { action } = step;
  if (action !== "remind" && !(typeof action === "object" && "add" in action)) return [];
  const type = action === "remind" ? "request.reminded" : "request.escalated";
  return [
    {
      eventKey: `${type}:${step.id}`,
      type,
      data: {
        id: request.id,
        threadId: request.threadId,
        runId: request.runId,
        step: { position: step.position, after: step.after, action },
        dueAt: step.dueAt.toISOString(),
        path: `/requests/${request.id}`,
      },
    },
  ];
}

/** Fires one due step; true when this process fired it (claimed it, or finished a dead claimer's). */
async function fireStep(deps: AnswerDeps, step: DueEscalationStep, now: Date): Promise<boolean> {
  const request = await getBareRequestById({ db: deps.db, id: step.requestRowId });
  if (request?.status !== "open") return false;
  const finishing = step.firedAt !== null;
  if (!finishing) {
    const claim = await claimEscalationStep({
      db: deps.db,
      step,
      now,
      audit: {
        actorId: null,
        action: "request.escalation_fired",
        targetType: "request",
        targetId: request.id,
        detail: {
          position: step.position,
          after: step.after,
          action: step.action,
          did: describeFiredStep(step.action),
        },
      },
      occurrences: occurrencesOf(step, request),
      mail: step.kind === "remind" || step.kind === "add",
    });
    if (!claim.claimed) return false;
  }
  const { action } = step;
  if (action === "expire") await expireRequest(deps, request);
  else if (typeof action === "object" && "decline" in action)
    await recordAnswer(
      deps,
      request,
      { id: request.request.id, ok: false, reason: "declined", data: { reason: action.decline } },
      null,
    );
  else if (step.kind === "remind" || step.kind === "add")
    // The request stays open, so no event is written: this notice has open inboxes and chat
    // cards look again and show the step.
    await deps.bus.publish({ threadId: request.threadId, seq: 0 });
  return !finishing;
}

/** Fires every due step of every open request; returns how many this process fired. */
export async function fireDueEscalationSteps(deps: AnswerDeps, now = new Date()): Promise<number> {
  let fired = 0;
  for (const step of await listDueEscalationSteps({ db: deps.db, now })) {
    if (await fireStep(deps, step, now)) fired += 1;
  }
  return fired;
}
