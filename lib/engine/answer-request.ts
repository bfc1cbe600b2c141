import { type BareRequest, getBareRequestById, type StoredRequest } from "@/lib/db/requests";
import { answerRequestTakingRun, resolveRequest } from "@/lib/db/resolve-request";
import { mcpElicitationOf } from "@/lib/domain/mcp-elicitation";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import type { Actor } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import type { AnswerPolicy } from "./answer-policy";
import type { AnswerInput, SubmittedAnswer } from "./engine-types";
import { publishAll } from "./event-writer";
import { type ExpiryDeps, expireRequest, isDue } from "./expire-request";
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

function refuseClosed(request: Pick<BareRequest, "status" | "runId">): never {
  if (request.status === "expired") throw new AppError("expired:request");
  if (request.status === "answered") throw new AppError("conflict:answer");
  // A run's requests are cancelled only with the run: whoever answers is told the call never ran.
  if (request.status === "cancelled" && request.runId !== null) throw new AppError("conflict:run_stopped");
  throw new AppError("conflict:request_closed");
}

/**
 * Someone who may not even see the request (neither its owner nor one who may answer it) is told
 * it does not exist, exactly as for an unknown id, so a guessed id reveals nothing. Its owner,
 * who knows it exists, is told they may not answer it.
 */
function checkMayAnswer(policy: AnswerPolicy, request: BareRequest, actor: Actor): void {
  if (policy.mayAnswer({ actor, audience: request.audience, ownerId: request.ownerId })) return;
  throw new AppError(request.ownerId === actor.id ? "forbidden:request" : "not_found:request");
}

const SIGN_IN_ELSEWHERE = "A sign-in completes at the provider: use the Continue link on the request.";

function decide(input: AnswerInput, request: BareRequest): SubmittedAnswer {
  const submitted = typeof input.answer === "function" ? input.answer(request) : input.answer;
  // An MCP server's URL elicitation is no sign-in of ours: the server itself checks what the
  // user did at its page, so the owner may say they have finished.
  const signIn =
    requestKindSpec(request.request.kind).form === "sign-in" && !mcpElicitationOf(request.request);
  if (signIn && submitted.ok && input.via !== "oauth_callback") {
    throw new AppError("bad_request:input", { message: SIGN_IN_ELSEWHERE });
  }
  return submitted;
}

/**
 * Every check of the answer path short of the claim, in its order; the request as read and the
 * answer as it will be stored. A decision held before it commits (held-decisions.ts) is checked
 * here when it is held, and again by `answerRequest` when it commits.
 */
export async function checkAnswer(deps: AnswerDeps, input: AnswerInput) {
  const { requestId, actor } = input;
  const request = await getBareRequestById({ db: deps.db, id: requestId });
  if (!request) throw new AppError("not_found:request");
  checkMayAnswer(deps.policy, request, actor);
  if (request.status !== "open") refuseClosed(request);
  if (isDue(request)) {
    await expireRequest(deps, request);
    throw new AppError("expired:request");
  }
  const submitted = decide(input, request);
  return { request, submitted, answer: validateAnswer({ request: request.request, answer: submitted }) };
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
  const { request, answer } = await checkAnswer(deps, input);

  const resolution = { status: "answered" as const, answer, actorId: actor.id };
  const target = {
    db: deps.db,
    id: request.id,
    runId: request.runId,
    threadId: request.threadId,
    toolName: request.toolName,
  };
  // The engine decides who drives the run once this was its last open request: this process,
  // taking it in the answer's own statement, when it takes runs at all; otherwise whichever
  // process claims it once the answer is stored.
  const lease = request.runId === null ? undefined : deps.runs?.leaseForTaking();
  const claim = lease
    ? await answerRequestTakingRun({ ...target, resolution, lease })
    : await resolveRequest({ ...target, resolution });
  if (!claim.claimed) {
    // Lost to another answer, an expiry, a cancel — or gone with its thread meanwhile, which
    // is no conflict: there is nothing left to answer.
    const now = await getBareRequestById({ db: deps.db, id: requestId });
    if (!now) throw new AppError("not_found:request");
    refuseClosed(now);
  }
  // Subscribers here have the event once publishing starts; the run need not wait for the
  // notification to other processes. The answer just stored goes with it, so the resumed run
  // need not read it back.
  const published = publishAll(deps.bus, claim.events);
  if (claim.takenRun) deps.runs?.continueTakenRun(claim.takenRun, answer);
  else if (request.runId !== null) deps.resumeWhenReady(request.runId, answer);
  await published;
  const { id: _id, ...stored } = answer;
  return {
    request: {
      ...request,
      status: "answered",
      resolvedAt: claim.resolvedAt.toISOString(),
      answer: { actorId: actor.id, ...stored, createdAt: claim.answeredAt.toISOString() },
    },
  };
}
