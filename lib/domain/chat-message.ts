import type { UIMessage } from "ai";
import type { ParkedRequestView, RequestState, RunState } from "./events";

// The chat's message shape on the AI SDK UI protocol. Tool calls, parked requests and the
// run's state travel as `data-*` parts keyed by a stable id, so a later write of the same id
// (a result arriving, a request being answered) replaces the card in place.

export type ToolCardState = "running" | "waiting" | "done" | "error" | "cancelled";

export interface ToolCardData {
  toolCallId: string;
  name: string;
  args: Record<string, unknown>;
  state: ToolCardState;
  output?: string;
}

export interface RequestResolution {
  status: Exclude<RequestState, "open">;
  ok: boolean;
  reason?: "declined" | "cancelled" | "expired";
  actorId?: string;
  /** Whom the actor answered for, when covering for someone away (ADR 0098). */
  forUserId?: string;
  at: string;
}

export interface RequestCardData {
  view: ParkedRequestView;
  /** When the request was parked (ISO 8601). */
  createdAt: string;
  resolution?: RequestResolution;
}

export interface RunCardData {
  runId: string;
  status: RunState;
  error?: string;
}

export type ChatDataParts = {
  tool: ToolCardData;
  request: RequestCardData;
  run: RunCardData;
  /**
   * Sent transient (never kept in a message) when the thread's open requests changed without an
   * event (a vote, a take, a fired escalation step): the open cards read their votes and steps
   * again now rather than at their next poll.
   */
  changed: Record<string, never>;
};

export type ChatMessage = UIMessage<never, ChatDataParts>;
