import type { RequestCardData } from "@/lib/domain/chat-message";
import type { RequestView } from "@/lib/domain/request-view";

/** Adapts a chat card to the shared form's view; the chat knows answerers only by id. */
export function requestCardView(card: RequestCardData, viewerId: string): RequestView {
  const base = {
    request: card.view.request,
    audience: card.view.audience,
    toolName: card.view.toolName,
    args: card.view.args,
    createdAt: card.createdAt,
  };
  const resolution = card.resolution;
  if (!resolution) return { status: "open", ...base };
  let answeredBy: string | undefined;
  // Besides the owner, only an admin may cancel a run; answers from others come from reviewers.
  if (resolution.actorId && resolution.actorId === viewerId) answeredBy = "you";
  // Someone the viewer named to cover for them while away answered in their place (ADR 0098).
  else if (resolution.forUserId === viewerId) answeredBy = "the person covering for you";
  else if (resolution.actorId) answeredBy = resolution.status === "cancelled" ? "an admin" : "a reviewer";
  return {
    status: resolution.status,
    ...base,
    answer: {
      ok: resolution.ok,
      answeredAt: resolution.at,
      ...(resolution.reason ? { reason: resolution.reason } : {}),
      ...(answeredBy ? { answeredBy } : {}),
    },
  };
}
