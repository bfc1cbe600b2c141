import { createHash } from "node:crypto";
import { getApproverGroupBySlug } from "@/lib/db/approver-groups";
import { carryEditedArguments, listCountedApprovals, markVoteLate, recordVote } from "@/lib/db/request-votes";
import { type BareRequest, getBareRequestById, type StoredRequest } from "@/lib/db/requests";
import { getUserById } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { canonicalJson } from "@/lib/toolnexus/checkpoint-digest";
import type { Answer } from "@/lib/toolnexus/types";
import type { AnswerDeps } from "./answer-request";
import { coveredPrincipal } from "./covering";
import type { AnswerInput } from "./engine-types";
import { announceChangeWithoutEvent } from "./event-bus";
import { expireRequest, isDue } from "./expire-request";
import { isAddedAddressee, ladderQuorum } from "./ladder-addressees";
import { decide, recordAnswer, refuseClosed } from "./record-answer";
import { validateAnswer } from "./validate-answer";
import { type Ballot, refuseSecondVote } from "./vote-ballot";

// A request addressed to an approver group collects votes (ADR 0076). Each member votes once;
// the asker never counts (four eyes). The M-th approval of the same arguments, or the first
// decline, becomes the request's answer through `recordAnswer`, the one answer path; whichever
// racing vote's claim wins settles it, and every other vote is kept, marked too late.

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The arguments an approval carries: as the request shows them now, or null when it has none. */
export function currentArguments(request: Pick<BareRequest, "request">): Record<string, unknown> | null {
  const args = request.request.data?.arguments;
  return isObject(args) ? args : null;
}

/** What approvals must agree on to count together. */
export function argumentsHash(args: Record<string, unknown> | null): string {
  return createHash("sha256").update(canonicalJson(args)).digest("hex");
}

function trimmed(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Who may vote: members of the group but the asker, or someone covering for a member while they
 * are away (ADR 0098), whose vote is then the member's. Others who may see it are told why not.
 */
async function checkMayVote(deps: AnswerDeps, request: BareRequest, input: AnswerInput): Promise<Ballot> {
  const { actor } = input;
  const group = request.audienceGroup
    ? await getApproverGroupBySlug({ db: deps.db, slug: request.audienceGroup })
    : undefined;
  // Members of a group or people an escalation step added (ADR 0093) vote as the group's do.
  const member =
    group?.memberIds.includes(actor.id) === true || (await isAddedAddressee(deps.db, request, actor.id));
  if (deps.policy.mayAnswer({ actor, audience: "group", ownerId: request.ownerId, member })) {
    return { voterId: actor.id, castById: actor.id };
  }
  const principal = await coveredPrincipal(deps.db, request, actor, () => {
    if (member) throw new AppError("forbidden:four_eyes");
    if (actor.id === request.ownerId || actor.role === "admin") {
      throw new AppError("forbidden:request", {
        message: `Only members of the approver group "${request.audienceGroup}" may vote on this request.`,
      });
    }
    // Someone who may not even see it is told it does not exist, as for an unknown id.
    throw new AppError("not_found:request");
  });
  return { voterId: principal.userId, castById: actor.id, forEmail: principal.email };
}

/** One member's vote; settles the request when it is the M-th approval or a decline. */
export async function castVote(
  deps: AnswerDeps,
  input: AnswerInput,
  request: BareRequest,
): Promise<{ request: StoredRequest }> {
  const { actor } = input;
  const ballot = await checkMayVote(deps, request, input);
  const { voterId } = ballot;
  const forUserId = voterId === actor.id ? undefined : voterId;
  if (request.status === "answered") await keepLateVote(deps, request, input, ballot);
  if (request.status !== "open") refuseClosed(request);
  if (isDue(request)) {
    await expireRequest(deps, request);
    throw new AppError("expired:request");
  }
  const checked = validateAnswer({ request: request.request, answer: decide(input, request) });
  const shown = currentArguments(request);
  const args = checked.ok ? (isObject(checked.data?.arguments) ? checked.data.arguments : shown) : null;
  const argsHash = checked.ok ? argumentsHash(args) : null;
  const note = trimmed(checked.ok ? checked.data?.note : checked.data?.reason);
  const vote = { requestRowId: request.id, ...ballot, ok: checked.ok, arguments: args, argsHash };
  const recorded = await recordVote({ db: deps.db, vote: { ...vote, ...(note ? { note } : {}) } });
  if (recorded.status === "second") await refuseSecondVote(deps.db, request.id, ballot);

  // An approval of other arguments than the request shows is an edit: the request carries them
  // from now on, and approvals of the old ones stop counting.
  if (args && argsHash !== null && argsHash !== argumentsHash(shown)) {
    await carryEditedArguments({ db: deps.db, requestRowId: request.id, actorId: actor.id, args, argsHash });
  }

  const answer = await settlingAnswer(deps, request, checked, { args, argsHash, note, voterId });
  if (answer) {
    const settled = await recordAnswer(deps, request, answer, actor.id, forUserId);
    if (settled) return settled;
    return tooLate(deps, request, voterId);
  }
  // Not settled by this vote: it counts only if the request was still open when it was stored.
  const now = await getBareRequestById({ db: deps.db, id: request.id });
  if (!now) throw new AppError("not_found:request");
  if (now.status !== "open") return tooLate(deps, request, voterId);
  // The request stays open, so no event is written: this notice has every open inbox and chat
  // card look again, and show the new tally.
  await announceChangeWithoutEvent(deps.bus, request.threadId);
  return { request: { ...now, answer: null } };
}

/** The answer this vote settles the request with, or null when it does not settle it. */
async function settlingAnswer(
  deps: AnswerDeps,
  request: BareRequest,
  checked: Answer,
  vote: { args: Record<string, unknown> | null; argsHash: string | null; note?: string; voterId: string },
): Promise<Answer | null> {
  if (!checked.ok) {
    const voter = await getUserById({ db: deps.db, userId: vote.voterId });
    return {
      id: checked.id,
      ok: false,
      reason: "declined",
      data: { ...(vote.note ? { reason: vote.note } : {}), declinedBy: voter?.email ?? vote.voterId },
    };
  }
  const approvals = await listCountedApprovals({
    db: deps.db,
    requestRowId: request.id,
    argsHash: vote.argsHash,
  });
  // The asker never counts, even were a vote of theirs stored (four eyes).
  const counted = approvals.filter((a) => a.voterId !== request.ownerId);
  let settling: typeof counted;
  if (counted.length >= request.required) {
    // The voters who settle it: the first M-1 others to approve these arguments, and this one.
    // Any other approval stored meanwhile belongs to a vote that loses the claim (too late).
    const mine = counted.find((a) => a.voterId === vote.voterId);
    const others = counted.filter((a) => a.voterId !== vote.voterId).slice(0, request.required - 1);
    settling = mine ? [...others, mine] : others;
  } else {
    // An addressee an escalation step added settles it by its own quorum (ADR 0093).
    const added = await ladderQuorum(deps.db, request, counted);
    if (!added) return null;
    settling = added;
  }
  const notes = settling.filter((a) => a.note).map((a) => `${a.email}: ${a.note}`);
  const { note: _own, ...data } = checked.data ?? {};
  return {
    id: checked.id,
    ok: true,
    data: {
      ...data,
      ...(vote.args ? { arguments: vote.args } : {}),
      ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
      approvers: settling.map((a) => a.email),
    },
  };
}

/**
 * A vote on a request already settled by others is kept, marked too late, and its voter told so;
 * a second vote of the same person is refused as such.
 */
async function keepLateVote(
  deps: AnswerDeps,
  request: BareRequest,
  input: AnswerInput,
  ballot: Ballot,
): Promise<never> {
  const submitted = decide(input, request);
  const note = trimmed(submitted.ok ? submitted.data?.note : submitted.data?.reason);
  const recorded = await recordVote({
    db: deps.db,
    vote: {
      requestRowId: request.id,
      ...ballot,
      ok: submitted.ok,
      arguments: null,
      argsHash: null,
      status: "late",
      ...(note ? { note } : {}),
    },
  });
  if (recorded.status === "second") await refuseSecondVote(deps.db, request.id, ballot);
  throw new AppError("conflict:vote_late");
}

/** Another vote, an expiry or a cancel settled the request first: this vote is kept as too late. */
async function tooLate(deps: AnswerDeps, request: BareRequest, voterId: string): Promise<never> {
  await markVoteLate({ db: deps.db, requestRowId: request.id, voterId });
  const now = await getBareRequestById({ db: deps.db, id: request.id });
  if (now?.status === "expired") throw new AppError("expired:request");
  throw new AppError("conflict:vote_late");
}
