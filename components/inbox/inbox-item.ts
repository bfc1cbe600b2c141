import type { BulkDecision, BulkOutcome, InboxRow, TakeView } from "@/lib/domain/inbox";
import type { ActionResult } from "@/lib/errors";

/** One row of the inbox, as the page hands it to the list: the stored row minus what stays on the server. */
export type InboxItem = Pick<
  InboxRow,
  | "id"
  | "kind"
  | "prompt"
  | "toolName"
  | "audience"
  | "status"
  | "createdAt"
  | "tally"
  | "outcome"
  | "escalation"
  | "coveringFor"
> & {
  /** Where the row's link goes: the inbox with this request selected beside the list. */
  href: string;
  expiresAt?: string;
  /** The value that tells this request from others of its tool ("$2,500.00", "v1.4"). */
  headline?: string;
  /**
   * Who asked ("Alice via API token 'ci'", "Alice's chat"): shown for other people's requests and
   * for one's own made through the API.
   */
  askedBy?: string;
  /** Who said "I'm on it", while that lasts. */
  take?: TakeView;
};

export type SubmitBulk = (input: {
  requestIds: string[];
  decision: BulkDecision;
}) => Promise<ActionResult<BulkOutcome[]>>;
