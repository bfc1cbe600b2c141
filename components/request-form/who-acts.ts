import type { Audience } from "@/lib/domain/events";
import type { RequestView } from "@/lib/domain/request-view";

/**
 * Who must act on a request, said only while someone still can: once it is answered, declined,
 * expired or cancelled its outcome says what happened, and a "must act" line would contradict it.
 * `viewer` is who reads it: the chat speaks to its owner, the request page to anyone.
 */
export function whoMustAct(
  view: { status: RequestView["status"]; audience: Audience },
  viewer: "owner" | "anyone",
): string | null {
  if (view.status !== "open") return null;
  if (view.audience === "reviewers") return "A reviewer must act";
  if (view.audience === "group") return "The approver group votes";
  return viewer === "owner" ? "You must act" : "The chat's owner must act";
}
