import { type BareRequest, getBareRequestById, type StoredRequest } from "@/lib/db/requests";
import type { Actor } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import type { AnswerPolicy } from "./answer-policy";
import { castVote } from "./cast-vote";
import { coveredPrincipal } from "./covering";
import type { AnswerInput } from "./engine-types";
import { type ExpiryDeps, expireRequest, isDue } from "./expire-request";
import { isAddedAddressee } from "./ladder-addressees";
import { decide, recordAnswer, refuseClosed } from "./record-answer";
import type { RunLauncher } from "./run-launcher";
import { validateAnswer } from "./validate-answer";

export interface AnswerDeps extends ExpiryDeps {
  policy: AnswerPolicy;
  /**
   * This process's runs (run-launcher.ts): when it takes runs, the answer to a run's last open
   * request takes the run in the answer's own statement, under `leaseForTaking()`, instead of
   * claiming it in one more statement after the commit, and `continueTakenRun` drives it.
   */
  runs?: Pick<RunLauncher, "leaseForTaking" | "continueTakenRun">;
}

/**
 * Someone who may not even see the request (neither its owner nor one who may answer it) is told
 * it does not exist, exactly as for an unknown id, so a guessed id reveals nothing. Its owner,
 * who knows it exists, is told they may not answer it.
 */
async function checkMayAnswer(
  deps: AnswerDeps,
  request: BareRequest,
  actor: Actor,
): Promise<{ forUserId?: string }> {
  if (deps.policy.mayAnswer({ actor, audience: request.audience, ownerId: request.ownerId })) return {};
  // Someone an escalation step added to the addressees (ADR 0093).
  if (request.audience !== "owner" && (await isAddedAddressee(deps.db, request, actor.id))) return {};
  // Someone covering for a person it is addressed to, in their place (ADR 0098).
  const principal = await coveredPrincipal(deps.db, request, actor, () => {
    throw new AppError(request.ownerId === actor.id ? "forbidden:request" : "not_found:request");
  });
  return { forUserId: principal.userId };
}

/** The checks of an answer to a request that is not a group's, in their order, short of the claim. */
async function checkOpenAnswer(deps: AnswerDeps, input: AnswerInput, request: BareRequest) {
  const { forUserId } = await checkMayAnswer(deps, request, input.actor);
  if (request.status !== "open") refuseClosed(request);
  if (isDue(request)) {
    await expireRequest(deps, request);
    throw new AppError("expired:request");
  }
  const submitted = decide(input, request);
  const answer = validateAnswer({ request: request.request, answer: submitted });
  return { request, submitted, answer, ...(forUserId ? { forUserId } : {}) };
}

/**
 * Every check of the answer path short of the claim; the request as read and the answer as it
 * will be stored. A decision held before it commits (held-decisions.ts) is checked here when it
 * is held, and again by `answerRequest` when it commits. A group's request is never held: each
 * member's vote is cast at once (cast-vote.ts), so several members may vote within seconds.
 */
export async function checkAnswer(deps: AnswerDeps, input: AnswerInput) {
  const request = await getBareRequestById({ db: deps.db, id: input.requestId });
  if (!request) throw new AppError("not_found:request");
  if (request.audience === "group") {
    throw new AppError("bad_request:input", {
      message: "A vote on a group's request counts at once: open the request to cast it.",
    });
  }
  return checkOpenAnswer(deps, input, request);
}

/**
 * The one path by which anyone answers a request. It reads the request once and checks in a
 * fixed order — exists, actor may answer, still open and not expired, a sign-in only from its
 * callback, data fits `data.schema` — then claims it. Only the claim decides between racing
 * answers; the earlier checks just give the losers of an obvious race a precise error without
 * a write.
 */
export async function answerRequest(
  deps: AnswerDeps,
  input: AnswerInput,
): Promise<{ request: StoredRequest }> {
  const { requestId, actor } = input;
  const request = await getBareRequestById({ db: deps.db, id: requestId });
  if (!request) throw new AppError("not_found:request");
  // A request addressed to a group collects votes; the vote that settles it is recorded by the
  // same `recordAnswer` as below.
  if (request.audience === "group") return castVote(deps, input, request);
  const { answer, forUserId } = await checkOpenAnswer(deps, input, request);

  const recorded = await recordAnswer(deps, request, answer, actor.id, forUserId);
  if (recorded) return recorded;
  // Lost to another answer, an expiry, a cancel — or gone with its thread meanwhile, which is no
  // conflict: there is nothing left to answer.
  const now = await getBareRequestById({ db: deps.db, id: requestId });
  if (!now) throw new AppError("not_found:request");
  refuseClosed(now);
}
