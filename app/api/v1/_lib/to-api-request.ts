import type { StoredRequest } from "@/lib/db/requests";
import type { StoredVote } from "@/lib/db/vote-tallies";
import type { EscalationStepView } from "@/lib/domain/escalation";
import type { Answer } from "@/lib/toolnexus/types";
import type { ApiRequest, ApiVote } from "./api-schemas";

function toApiVote(vote: StoredVote): ApiVote {
  return {
    by: vote.email,
    ok: vote.ok,
    at: vote.createdAt,
    ...(vote.note ? { note: vote.note } : {}),
    counts: vote.status,
  };
}

/**
 * A stored request as the API returns it: the suspension contract's Request fields, where it
 * stands, and once it has left "open" its Answer. Absent fields are left out, never null.
 */
export function toApiRequest(
  stored: StoredRequest,
  votes: StoredVote[] = [],
  escalation: EscalationStepView[] = [],
): ApiRequest {
  const { request } = stored;
  const out: ApiRequest = {
    id: stored.id,
    kind: request.kind,
    prompt: request.prompt,
    ...(request.url !== undefined ? { url: request.url } : {}),
    ...(request.data !== undefined ? { data: request.data } : {}),
    ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
    audience:
      stored.audience === "group"
        ? { group: stored.audienceGroup ?? "", required: stored.required }
        : stored.audience,
    required: stored.required,
    votes: votes.map(toApiVote),
    escalation: escalation.map(({ position: _position, ...step }) => step),
    status: stored.status,
    createdAt: stored.createdAt,
  };
  if (stored.resolvedAt !== null) out.resolvedAt = stored.resolvedAt;
  if (stored.status !== "open") {
    const stored_ = stored.answer;
    const answer: Answer = { id: stored.id, ok: stored_?.ok ?? false };
    if (stored_?.data !== undefined) answer.data = stored_.data;
    if (!answer.ok)
      answer.reason = stored_?.reason ?? (stored.status === "answered" ? "declined" : stored.status);
    out.answer = answer;
  }
  return out;
}
