import {
  claimDueHeldDecision,
  deleteHeldDecision,
  deleteUnclaimedHeldDecision,
  insertHeldDecision,
  listDueHeldDecisionIds,
} from "@/lib/db/held-decisions";
import { releaseRequestById, takeRequestById } from "@/lib/db/request-takes";
import type { StoredRequest } from "@/lib/db/requests";
import { getUserById } from "@/lib/db/users";
import type { Actor } from "@/lib/domain/roles";
import { AppError, isAppError } from "@/lib/errors";
import { type AnswerDeps, checkAnswer } from "./answer-request";
import type { AnswerInput } from "./engine-types";
import { announceChangeWithoutEvent } from "./event-bus";
import { reportEngineError } from "./run-launcher";

// A reviewer's decision is held for a few seconds before it is committed, so Undo is real: the
// request stays open, nothing runs and no other screen changes (ADR 0080). It commits through
// the one answer path, by whichever comes first: the reviewer's page when its timer ends, or
// the engine's sweep (once a second, in every process), so a closed tab never loses it.

export { holdDurationMs } from "./hold-duration";

// A committer that claimed a decision and then died leaves it claimed; after this long the
// sweep claims it again. The answer path is exactly-once, so a second try cannot answer twice.
const STALE_CLAIM_MS = 60_000;

export type Answering = (input: AnswerInput) => Promise<{ request: StoredRequest }>;

export interface HeldDecisionDeps extends AnswerDeps {
  answerRequest: Answering;
  holdMs: number;
  now?: () => Date;
}

export interface HeldDecision {
  heldId: string;
  commitAt: string;
}

/**
 * Checks a decision as the answer path would (who may answer, still open, the schema), then
 * holds it. The reviewer's "I'm on it" is taken until it commits, so colleagues see who is
 * deciding; a colleague's decision already held is refused with their name.
 */
export async function holdDecision(
  deps: HeldDecisionDeps,
  input: Pick<AnswerInput, "requestId" | "actor" | "answer">,
): Promise<HeldDecision> {
  const { request, submitted } = await checkAnswer(deps, input);
  const now = deps.now?.() ?? new Date();
  const commitAt = new Date(now.getTime() + deps.holdMs);
  const held = await insertHeldDecision({
    db: deps.db,
    requestId: request.id,
    actorId: input.actor.id,
    answer: submitted,
    commitAt,
  });
  if (held.status === "held_by_other") {
    const holder = await getUserById({ db: deps.db, userId: held.actorId });
    const name = holder?.name ?? holder?.email;
    throw new AppError("conflict:decision_held", {
      ...(name
        ? { message: `${name} has just decided this request; it takes effect in a few seconds.` }
        : {}),
    });
  }
  if (request.audience === "reviewers") {
    await takeRequestById({
      db: deps.db,
      id: request.id,
      takerId: input.actor.id,
      now,
      until: new Date(commitAt.getTime() + 30_000),
    });
    // Every open inbox checks its version on this notice, and shows the take.
    await announceChangeWithoutEvent(deps.bus, request.threadId);
  }
  return { heldId: held.id, commitAt: commitAt.toISOString() };
}

/** Undoes the actor's own held decision; refused once it has begun to commit. */
export async function undoDecision(deps: HeldDecisionDeps, input: { heldId: string; actor: Actor }) {
  const undone = await deleteUnclaimedHeldDecision({
    db: deps.db,
    id: input.heldId,
    actorId: input.actor.id,
  });
  if (!undone) throw new AppError("conflict:decision_committed");
  const request = await releaseTake(deps, undone.requestId, input.actor.id);
  return { requestId: request ?? undone.requestId };
}

async function releaseTake(deps: HeldDecisionDeps, requestId: string, actorId: string) {
  const row = await deps.db.request.findUnique({ where: { id: requestId }, select: { threadId: true } });
  if (!row) return null;
  await releaseRequestById({ db: deps.db, id: requestId, takerId: actorId, now: deps.now?.() ?? new Date() });
  await announceChangeWithoutEvent(deps.bus, row.threadId);
  return requestId;
}

export type CommitOutcome =
  | { status: "committed"; request: StoredRequest }
  | { status: "refused"; code: string }
  | { status: "not_due" };

/**
 * Commits one held decision if it is due and nobody else is committing it: claim the row, answer
 * through the one answer path as its reviewer (their role as it is now), then forget the row. A
 * refusal (someone else answered first, the request expired, the reviewer lost the right) ends
 * it too; any other failure leaves it claimed, for the sweep to try again once the claim is stale.
 */
export async function commitHeldDecision(deps: HeldDecisionDeps, heldId: string): Promise<CommitOutcome> {
  const now = deps.now?.() ?? new Date();
  const held = await claimDueHeldDecision({
    db: deps.db,
    id: heldId,
    now,
    staleBefore: new Date(now.getTime() - STALE_CLAIM_MS),
  });
  if (!held) return { status: "not_due" };
  const user = await getUserById({ db: deps.db, userId: held.actorId });
  try {
    if (!user) throw new AppError("not_found:request");
    const { request } = await deps.answerRequest({
      requestId: held.requestId,
      actor: { id: user.id, role: user.role },
      answer: held.answer,
    });
    await deleteHeldDecision({ db: deps.db, id: held.id });
    return { status: "committed", request };
  } catch (error) {
    if (!isAppError(error)) throw error;
    await deleteHeldDecision({ db: deps.db, id: held.id });
    await releaseTake(deps, held.requestId, held.actorId);
    return { status: "refused", code: error.code };
  }
}

/** The sweep: commits every due held decision; returns how many it committed. */
export async function commitDueDecisions(deps: HeldDecisionDeps): Promise<number> {
  const now = deps.now?.() ?? new Date();
  let committed = 0;
  for (const id of await listDueHeldDecisionIds({
    db: deps.db,
    now,
    staleBefore: new Date(now.getTime() - STALE_CLAIM_MS),
  })) {
    try {
      if ((await commitHeldDecision(deps, id)).status === "committed") committed += 1;
    } catch (error) {
      reportEngineError(error);
    }
  }
  return committed;
}
