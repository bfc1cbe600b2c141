import type { StoredRequest } from "@/lib/db/requests";
import type { Answer } from "@/lib/toolnexus/types";
import type { ApiRequest } from "./api-schemas";

/**
 * A stored request as the API returns it: the suspension contract's Request fields, where it
 * stands, and once it has left "open" its Answer. Absent fields are left out, never null.
 */
export function toApiRequest(stored: StoredRequest): ApiRequest {
  const { request } = stored;
  const out: ApiRequest = {
    id: stored.id,
    kind: request.kind,
    prompt: request.prompt,
    ...(request.url !== undefined ? { url: request.url } : {}),
    ...(request.data !== undefined ? { data: request.data } : {}),
    ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
    audience: stored.audience,
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
