import type { Audience, RequestState } from "@/lib/engine/event-types";

/** One row of the inbox, as the page hands it to the list. */
export interface InboxItem {
  id: string;
  kind: string;
  prompt: string;
  toolName: string;
  audience: Audience;
  status: RequestState;
  createdAt: string;
  expiresAt?: string;
  /** Who the request belongs to, for reviewers looking at other people's requests. */
  ownerName?: string;
}

export type BulkDecision = { decision: "approve" } | { decision: "decline"; reason?: string };

export type BulkOutcome = { id: string; ok: true } | { id: string; ok: false; message: string };

export type SubmitBulk = (input: {
  requestIds: string[];
  decision: BulkDecision;
}) => Promise<{ ok: true; outcomes: BulkOutcome[] } | { ok: false; message: string }>;
