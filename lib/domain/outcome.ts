import { requestKindSpec } from "./request-kinds";

/**
 * How a request ended, in the one set of words every page uses: the inbox, the chat's card, the
 * request page, the audit table, its filter and its CSV. A positive answer is "approved" for the
 * kinds that are approvals and "answered" for the rest; a negative one is "declined" unless the
 * system closed it (expiry, cancellation).
 */
export const OUTCOMES = ["approved", "declined", "answered", "expired", "cancelled"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The word people read for an outcome, capitalised as a badge or heading shows it. */
export const OUTCOME_LABEL: Record<Outcome, string> = {
  approved: "Approved",
  declined: "Declined",
  answered: "Answered",
  expired: "Expired",
  cancelled: "Cancelled",
};

/** The request kinds whose positive answer is an approval. */
export function isApprovalKind(kind: string): boolean {
  return requestKindSpec(kind).answeredAs === "approved";
}

/**
 * The outcome of a closed request from its kind and its answer: `ok` and, when not ok, the
 * answer's `reason` ("declined" | "expired" | "cancelled").
 */
export function outcomeOf(kind: string, answer: { ok: boolean; reason?: string | null }): Outcome {
  if (answer.ok) return isApprovalKind(kind) ? "approved" : "answered";
  return answer.reason === "expired" || answer.reason === "cancelled" ? answer.reason : "declined";
}
