import type { Answer, Request } from "@/lib/toolnexus/types";
import type { Audience } from "./events";

export interface AnswerRecord {
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: Answer["reason"];
  /** Display name of whoever answered; absent when the system did (expiry, cancellation). */
  answeredBy?: string;
  answeredAt: string;
  /** Answered, but the run was stopped before the call waiting for the answer ran (ADR 0055). */
  runStoppedFirst?: true;
}

/**
 * What the UI needs to render one parked request. Pages build it from the database row so
 * the components stay independent of the storage layer.
 */
export type RequestView =
  | {
      status: "open";
      request: Request;
      audience: Audience;
      toolName: string;
      args: Record<string, unknown>;
      createdAt: string;
    }
  | {
      status: "answered" | "expired" | "cancelled";
      request: Request;
      audience: Audience;
      toolName: string;
      args: Record<string, unknown>;
      createdAt: string;
      answer: AnswerRecord;
    };

/** One line of the chat that led to a request, as the request's detail quotes it (read-only). */
export interface ConversationLine {
  role: "user" | "assistant";
  text: string;
}
