import type { BulkDecision, BulkOutcome, InboxRow } from "@/lib/domain/inbox";
import type { ActionResult } from "@/lib/errors";

/** One row of the inbox, as the page hands it to the list: the stored row minus what stays on the server. */
export type InboxItem = Pick<
  InboxRow,
  "id" | "kind" | "prompt" | "toolName" | "audience" | "status" | "createdAt"
> & {
  expiresAt?: string;
  /** Who the request belongs to, for reviewers looking at other people's requests. */
  ownerName?: string;
};

export type SubmitBulk = (input: {
  requestIds: string[];
  decision: BulkDecision;
}) => Promise<ActionResult<BulkOutcome[]>>;
