import { isApproverGroupMember } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { getRequestById, type StoredRequest } from "@/lib/db/requests";
import { getRunById } from "@/lib/db/runs";
import type { Actor } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import { requestActionInput } from "./actor-input";
import type { AnswerDeps } from "./answer-request";
import { coverOn, type Principal } from "./covering";
import { expireRequest, isDue } from "./expire-request";
import { isAddedAddressee } from "./ladder-addressees";

/**
 * A request as read: `runStoppedFirst` when it was answered but its run was stopped before the
 * call waiting for the answer ran, so the answer was recorded and never used (ADR 0055);
 * `mayAnswer` whether the reader may answer (or vote on) it.
 */
export type ReadRequest = StoredRequest & {
  runStoppedFirst: boolean;
  mayAnswer: boolean;
  /** The person away whom the reader would answer for (ADR 0098); absent when in their own right. */
  coveringFor?: Principal;
};

/**
 * A request as `actor` may see it: those who may answer it, and its chat's owner. A request
 * whose time is up is expired first, so nobody is shown a form that can no longer be sent.
 */
export async function readRequest(
  deps: AnswerDeps,
  input: { requestId: string; actor: Actor },
): Promise<ReadRequest> {
  const parsed = requestActionInput.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request:input");
  const { requestId, actor } = parsed.data;
  const request = await getRequestById({ db: deps.db, id: requestId });
  if (!request) throw new AppError("not_found:request");
  // A group's request is seen by its members (the asker among them) and admins, who audit it.
  // Those an escalation step added (ADR 0093) see and answer it as its first addressees do.
  const added = request.audience !== "owner" && (await isAddedAddressee(deps.db, request, actor.id));
  const member =
    (request.audience === "group" && request.audienceGroup !== null
      ? await isApproverGroupMember({ db: deps.db, slug: request.audienceGroup, userId: actor.id })
      : false) ||
    (request.audience === "group" && added);
  const mayAnswer =
    deps.policy.mayAnswer({
      actor,
      audience: request.audience,
      ownerId: request.ownerId,
      member,
    }) || added;
  const maySee =
    mayAnswer ||
    request.ownerId === actor.id ||
    member ||
    (request.audience === "group" && actor.role === "admin");
  // Someone covering for a person it is addressed to sees it as theirs (ADR 0098).
  const cover = mayAnswer ? null : await coverOn(deps.db, request, actor);
  const coveringFor = cover?.status === "covering" ? { coveringFor: cover.principal } : {};
  // The same refusal as for an unknown id: a stranger cannot tell whether the id exists.
  if (!maySee && !coveringFor.coveringFor) throw new AppError("not_found:request");
  const mayAct = mayAnswer || coveringFor.coveringFor !== undefined;
  if (!isDue(request)) {
    return { ...(await withRunStopped(deps.db, request)), mayAnswer: mayAct, ...coveringFor };
  }
  await expireRequest(deps, request);
  const now = (await getRequestById({ db: deps.db, id: requestId })) ?? request;
  return { ...now, runStoppedFirst: false, mayAnswer: false, ...coveringFor };
}

/**
 * A run's stored checkpoint still waits on the request only if the call never ran: the answer
 * that takes the run back to running forbids a Stop until a safe point past the call (or a park)
 * has replaced that checkpoint, so a cancelled run that still waits on it was stopped first,
 * unless the Stop ended it when those calls ran past its grace (ADR 0101).
 */
async function withRunStopped(
  db: DbClient,
  request: StoredRequest,
): Promise<StoredRequest & { runStoppedFirst: boolean }> {
  if (request.status !== "answered" || request.runId === null) return { ...request, runStoppedFirst: false };
  const run = await getRunById({ db, runId: request.runId });
  const waiting = run?.checkpoint?.slots.some(
    (slot) => slot.state.status === "suspended" && slot.state.request.id === request.request.id,
  );
  // A run cancelled while the answered calls ran past the Stop's grace keeps the flag: they ran.
  const stoppedFirst = run?.status === "cancelled" && !run.answeredCallsStarted && waiting === true;
  return { ...request, runStoppedFirst: stoppedFirst };
}
