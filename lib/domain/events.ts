import type { Request, Usage } from "@/lib/toolnexus/types";

// The thread event log: what a chat renders and what live subscribers receive. Every event is
// persisted with a per-thread `seq` (1, 2, 3, … without gaps) before it is delivered, so a
// viewer that reconnects with the last seq it saw gets exactly what it missed.

export type RunState = "running" | "pending" | "done" | "incomplete" | "failed" | "cancelled";
export type RequestState = "open" | "answered" | "expired" | "cancelled";
/**
 * Who may answer a parked request: the thread's owner, anyone with the reviewer role, or the
 * members of an approver group, who vote until `required` of them approve (ADR 0076).
 */
export type Audience = "owner" | "reviewers" | "group";

/** A parked request as the UI shows it. `id` is what `answerRequest` takes. */
export interface ParkedRequestView {
  id: string;
  /** The suspension contract's Request, exactly as the tool produced it. */
  request: Request;
  /** Null for a request made through the HTTP API, which no run waits on (ADR 0034). */
  runId: string | null;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  audience: Audience;
  status: RequestState;
}

export type EventBody =
  /** The user's message that started a run. */
  | { type: "user_message"; content: string }
  | { type: "run_status"; status: RunState; error?: string }
  /** Assistant text, streamed: consecutive deltas of one model turn concatenate. */
  | { type: "text"; delta: string }
  | { type: "tool_call"; toolCallId: string; name: string; args: Record<string, unknown> }
  | {
      type: "tool_result";
      toolCallId: string;
      name: string;
      output: string;
      isError: boolean;
    }
  /** The run parked; one entry per suspension of the halted turn, in tool-call order. */
  | { type: "pending"; requests: ParkedRequestView[] }
  /** A parked request left the `open` state (answered by someone, expired, or cancelled). */
  | {
      type: "request_resolved";
      id: string;
      status: Exclude<RequestState, "open">;
      ok: boolean;
      reason?: "declined" | "cancelled" | "expired";
      actorId?: string;
      /** Whom the actor answered for, when covering for someone away (ADR 0098). */
      forUserId?: string;
    }
  | { type: "usage"; usage: Usage }
  /**
   * A process took the run over from one that died: the run's transcript events (text,
   * tool_call, tool_result, usage) after `afterSeq` and before this event were written by the
   * dead segment past its last safe point, and the new owner does that work again. Replays skip
   * them, so a thread's log replays to exactly its transcript.
   */
  | { type: "superseded"; afterSeq: number }
  /** The run reached a final state; `text` is the assistant's last answer. */
  | { type: "run_finished"; status: Exclude<RunState, "running" | "pending">; text: string };

export type EventType = EventBody["type"];

export type ThreadEvent = EventBody & {
  threadId: string;
  seq: number;
  /** Null only for events not tied to a run. */
  runId: string | null;
  /** ISO 8601. */
  createdAt: string;
};
