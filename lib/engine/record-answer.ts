import type { BareRequest, StoredRequest } from "@/lib/db/requests";
import { answerRequestTakingRun, resolveRequest } from "@/lib/db/resolve-request";
import { mcpElicitationOf } from "@/lib/domain/mcp-elicitation";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import { AppError } from "@/lib/errors";
import type { Answer } from "@/lib/toolnexus/types";
import type { AnswerDeps } from "./answer-request";
import type { AnswerInput, SubmittedAnswer } from "./engine-types";
import { publishAll } from "./event-writer";

const SIGN_IN_ELSEWHERE = "A sign-in completes at the provider: use the Continue link on the request.";

/** The decision submitted, made from the request when given as a function. */
export function decide(input: AnswerInput, request: BareRequest): SubmittedAnswer {
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

/** The precise refusal for a request that has left "open". */
export function refuseClosed(request: Pick<BareRequest, "status" | "runId">): never {
  if (request.status === "expired") throw new AppError("expired:request");
  if (request.status === "answered") throw new AppError("conflict:answer");
  // A run's requests are cancelled only with the run: whoever answers is told the call never ran.
  if (request.status === "cancelled" && request.runId !== null) throw new AppError("conflict:run_stopped");
  throw new AppError("conflict:request_closed");
}

/**
 * Stores a checked answer through the one answer path (lib/db/resolve-request.ts) and lets the
 * run go on. Both a single answer and the vote that settles a group's request end here, so
 * there is one way a request becomes answered. Null when another resolution claimed it first.
 */
export async function recordAnswer(
  deps: AnswerDeps,
  request: BareRequest,
  answer: Answer,
  /** Null when the system answers: an escalation step that declines the request (ADR 0093). */
  actorId: string | null,
  /** Whom the actor answers for, when covering for someone away (ADR 0098). */
  forUserId?: string,
): Promise<{ request: StoredRequest } | null> {
  const resolution = { status: "answered" as const, answer, actorId, ...(forUserId ? { forUserId } : {}) };
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
  if (!claim.claimed) return null;
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
      answer: {
        actorId,
        ...(forUserId ? { forUserId } : {}),
        ...stored,
        createdAt: claim.answeredAt.toISOString(),
      },
    },
  };
}
