import {
  claimEscalationStep,
  type DueEscalationStep,
  dropUnfiredEscalationStep,
  listDueEscalationSteps,
} from "@/lib/db/due-escalation-steps";
import { type BareRequest, getBareRequestById } from "@/lib/db/requests";
import { describeFiredStep } from "@/lib/domain/escalation";
import type { WebhookOccurrence } from "@/lib/domain/webhooks";
import type { AnswerDeps } from "./answer-request";
import { announceChangeWithoutEvent } from "./event-bus";
import { expireRequest } from "./expire-request";
import { recordAnswer } from "./record-answer";

// Escalation ladders (ADR 0093), fired on the expiry sweep's beat in every process. A reminder
// or an escalation is claimed by one conditional update, in the transaction that writes its
// audit entry, webhook message and mail notice, so it fires once across instances and restarts.
// A step that declines or expires closes the request first, through the one answer path
// (`recordAnswer`, as the system) or the expiry path, which claim the request once; only the
// instance whose close won claims the step. A step whose request closed first is dropped.

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

/** Fires one due step; true when this process fired it. */
async function fireStep(deps: AnswerDeps, step: DueEscalationStep, now: Date): Promise<boolean> {
  const request = step.requestOpen ? await getBareRequestById({ db: deps.db, id: step.requestRowId }) : null;
  if (request?.status !== "open") {
    await dropUnfiredEscalationStep({ db: deps.db, id: step.id });
    return false;
  }
  const { action } = step;
  if (action === "expire") {
    if (!(await expireRequest(deps, request))) return false;
  } else if (typeof action === "object" && "decline" in action) {
    const answer = {
      id: request.request.id,
      ok: false,
      reason: "declined" as const,
      data: { reason: action.decline },
    };
    if (!(await recordAnswer(deps, request, answer, null))) return false;
  }
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
  // The request stays open after a reminder or an escalation, so no event is written: the claim
  // moved its `escalatedAt`, and with it the version of every inbox that lists it, and this
  // notice has open inboxes check theirs and the asker's open chat read its card's steps again. A decline or an expiry moved the version by closing
  // the request, and its event went out then; an inbox that looked before the claim committed
  // shows the step from its next look.
  await announceChangeWithoutEvent(deps.bus, request.threadId);
  return true;
}

/** Fires every due step of every open request; returns how many this process fired. */
export async function fireDueEscalationSteps(deps: AnswerDeps, now = new Date()): Promise<number> {
  let fired = 0;
  for (const step of await listDueEscalationSteps({ db: deps.db, now })) {
    if (await fireStep(deps, step, now)) fired += 1;
  }
  return fired;
}
