import type { Audience } from "@/lib/engine/event-types";
import type { FieldIssue } from "@/lib/errors";
import type { Answer, Request } from "@/lib/toolnexus/types";

export type { Audience };

export interface AnswerRecord {
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: Answer["reason"];
  /** Display name of whoever answered; absent when the system did (expiry, cancellation). */
  answeredBy?: string;
  answeredAt: string;
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

/** The part of an Answer a form produces; the request id is added by whoever submits. */
export type AnswerDraft = Omit<Answer, "id">;

/** `issues` address fields by JSON pointer into the submitted data (server-side validation). */
export type SubmitOutcome = { ok: true } | { ok: false; message: string; issues?: FieldIssue[] };

export type SubmitAnswer = (draft: AnswerDraft) => Promise<SubmitOutcome>;
