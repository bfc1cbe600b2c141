import type { ArgumentChange } from "./approval-edit";
import { OUTCOMES, type Outcome } from "./outcome";

/** How a request ended, as the audit lists and filters it: the app's one vocabulary. */
export const AUDIT_OUTCOMES = OUTCOMES;
export type AuditOutcome = Outcome;

/** One answer in the audit: who answered what, when, how, and what they changed. */
export interface AuditRow {
  answerId: string;
  answeredAt: string;
  /** Null when the system closed the request (expiry, cancellation of the run). */
  actor: { id: string; name: string } | null;
  requestId: string;
  kind: string;
  prompt: string;
  toolName: string;
  outcome: AuditOutcome;
  /** A decline's reason as the reviewer typed it. */
  reason?: string;
  /** The tool call's arguments as the agent asked for them. */
  argumentsAsked: Record<string, unknown>;
  /** What an approver changed before approving; empty if nothing. */
  changes: ArgumentChange[];
}
