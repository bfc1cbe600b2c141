import type { EscalationStepView } from "./escalation";
import type { Audience, RequestState } from "./events";
import type { Outcome } from "./outcome";
import type { RequestOrigin } from "./request-origin";
import type { VoteTally } from "./vote-tally";

/** One request as the inbox lists it: what the database returns for a page of the inbox. */
export interface InboxRow {
  id: string;
  kind: string;
  prompt: string;
  toolName: string;
  /** The tool call's arguments, as stored. */
  args: unknown;
  audience: Audience;
  status: RequestState;
  createdAt: string;
  expiresAt: string | null;
  ownerId: string;
  ownerName: string | null;
  /** Whose chat asked, or whose API token. */
  origin: RequestOrigin;
  /** For a request addressed to an approver group: its votes so far (ADR 0076). */
  tally?: VoteTally;
  /** The escalation steps it has taken (ADR 0093); absent when none has fired. */
  escalation?: EscalationStepView[];
  /** How it ended; only once it is no longer open. */
  outcome?: Outcome;
  /** The person away the viewer covers for whom this row is addressed to (ADR 0098). */
  coveringFor?: { userId: string; email: string };
}

/** What a reviewer decides for several approvals at once. */
export type BulkDecision = { decision: "approve" } | { decision: "decline"; reason?: string };

export type BulkOutcome = { id: string; ok: true } | { id: string; ok: false; message: string };

/** Someone's unlapsed "I'm on it" on a request, as the pages show it. */
export interface TakeView {
  takerName: string;
  /** RFC 3339; the take lapses by itself then. */
  until: string;
  /** The viewer's own take. */
  mine: boolean;
  /** The taker has decided and the decision is in its Undo window (ADR 0080). */
  deciding?: boolean;
}
