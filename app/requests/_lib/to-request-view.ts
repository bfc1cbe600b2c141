import type { StoredRequest } from "@/lib/db/requests";
import type { RequestView } from "@/lib/domain/request-view";

/**
 * Adapts a stored request to the form's view; `answeredBy` is a display name looked up by the
 * caller, `runStoppedFirst` what the engine read of the request's run.
 */
export function toRequestView(
  stored: StoredRequest & { runStoppedFirst?: boolean },
  answeredBy?: string,
): RequestView {
  const base = {
    request: stored.request,
    audience: stored.audience,
    toolName: stored.toolName,
    args: stored.args,
    createdAt: stored.createdAt,
  };
  if (stored.status === "open") return { status: "open", ...base };
  const answer = stored.answer;
  return {
    status: stored.status,
    ...base,
    answer: {
      ok: answer?.ok ?? false,
      answeredAt: answer?.createdAt ?? stored.resolvedAt ?? stored.createdAt,
      ...(answer?.data ? { data: answer.data } : {}),
      ...(answer?.reason ? { reason: answer.reason } : {}),
      ...(answeredBy ? { answeredBy } : {}),
      ...(stored.runStoppedFirst ? { runStoppedFirst: true as const } : {}),
    },
  };
}
