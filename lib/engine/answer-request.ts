import { z } from "zod";
import type { DbClient } from "@/lib/db/db-types";
import { claimRequest, getRequestById, type StoredRequest } from "@/lib/db/requests";
import { AppError } from "@/lib/errors";
import type { Actor, AnswerPolicy } from "./answer-policy";
import type { SubmittedAnswerInput } from "./engine-types";
import type { EventBus } from "./event-bus";
import { publishAll } from "./event-writer";
import { validateAnswer } from "./validate-answer";

const boundary = z.object({
  requestId: z.string().min(1).max(200),
  actor: z.object({ id: z.string().min(1).max(200), role: z.enum(["user", "reviewer", "admin"]) }),
});

export interface AnswerDeps {
  db: DbClient;
  bus: EventBus;
  policy: AnswerPolicy;
  /** Continues the run in the background once none of its requests is open. */
  resumeWhenReady: (runId: string) => void;
}

export function isDue(request: StoredRequest, now = Date.now()): boolean {
  const at = request.request.expiresAt;
  return request.status === "open" && at !== undefined && Date.parse(at) <= now;
}

/** The system's answer to a request whose time is up; false when something else resolved it first. */
export async function expireRequest(
  deps: AnswerDeps,
  request: { id: string; runId: string; threadId: string },
): Promise<boolean> {
  const { id, runId, threadId } = request;
  const claim = await claimRequest({
    db: deps.db,
    id,
    runId,
    threadId,
    resolution: { status: "expired", actorId: null },
  });
  if (!claim.claimed) return false;
  await publishAll(deps.bus, claim.events);
  deps.resumeWhenReady(runId);
  return true;
}

function refuseClosed(request: StoredRequest): never {
  if (request.status === "expired") throw new AppError("expired:request");
  if (request.status === "answered") throw new AppError("conflict:answer");
  throw new AppError("conflict:request_closed");
}

export function checkMayAnswer(policy: AnswerPolicy, request: StoredRequest, actor: Actor): void {
  if (!policy.mayAnswer({ actor, audience: request.audience, ownerId: request.ownerId })) {
    throw new AppError("forbidden:request");
  }
}

/**
 * Checks in a fixed order — exists, actor may answer, still open and not expired, data fits
 * `data.schema` — then claims the request. Only the claim decides between racing answers; the
 * earlier checks just give the losers of an obvious race a precise error without a write.
 */
export async function answerRequest(
  deps: AnswerDeps,
  input: SubmittedAnswerInput,
): Promise<{ request: StoredRequest }> {
  const parsed = boundary.safeParse({ requestId: input.requestId, actor: input.actor });
  if (!parsed.success) throw new AppError("bad_request:input");
  const { requestId, actor } = parsed.data;

  const request = await getRequestById({ db: deps.db, id: requestId });
  if (!request) throw new AppError("not_found:request");
  checkMayAnswer(deps.policy, request, actor);
  if (request.status !== "open") refuseClosed(request);
  if (isDue(request)) {
    await expireRequest(deps, request);
    throw new AppError("expired:request");
  }
  const answer = validateAnswer({ request: request.request, answer: input.answer });

  const claim = await claimRequest({
    db: deps.db,
    id: request.id,
    runId: request.runId,
    threadId: request.threadId,
    resolution: { status: "answered", answer, actorId: actor.id },
  });
  if (!claim.claimed) {
    const now = await getRequestById({ db: deps.db, id: requestId });
    refuseClosed(now ?? { ...request, status: "answered" });
  }
  await publishAll(deps.bus, claim.events);
  deps.resumeWhenReady(request.runId);
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
