import type { Audience } from "@/lib/domain/events";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import type { RequestView } from "@/lib/domain/request-view";
import type { VoteTally } from "@/lib/domain/vote-tally";

interface WhoView {
  status: RequestView["status"];
  audience: Audience;
  request?: { data?: Record<string, unknown> | undefined };
}

/** "2 of finance", from the tally when read, else from the address the request carries. */
function groupAddress(view: WhoView, tally: VoteTally | null | undefined): string | null {
  const group = tally?.group ?? view.request?.data?.audienceGroup;
  const required = tally?.required ?? view.request?.data?.required;
  if (typeof group !== "string" || typeof required !== "number") return null;
  return `${required} of ${group}`;
}

/**
 * Who must act on a request, said only while someone still can: once it is answered, declined,
 * expired or cancelled its outcome says what happened, and a "must act" line would contradict it.
 * `viewer` is who reads it: the chat speaks to its owner, the request page to anyone. A group's
 * line names the members who may still vote once its tally is read.
 */
export function whoMustAct(
  view: WhoView,
  viewer: "owner" | "anyone",
  tally?: VoteTally | null,
): string | null {
  if (view.status !== "open") return null;
  if (view.audience === "reviewers") return "A reviewer must act: any reviewer may decide";
  if (view.audience === "group") {
    const address = groupAddress(view, tally);
    if (!address) return "The approver group votes";
    const names = tally?.stillToVote ?? [];
    return names.length > 0
      ? `${address} must approve — ${names.join(", ")} may approve`
      : `${address} must approve`;
  }
  return viewer === "owner" ? "You must act" : "The chat's owner must act";
}

/** What happens if nobody acts before the request expires, in the words of its kind. */
export function atExpiry(kind: string): string {
  return requestKindSpec(kind).form === "approval"
    ? "If nobody decides by then, it expires and nothing runs."
    : "If nobody answers by then, it expires and the agent goes on without an answer.";
}
