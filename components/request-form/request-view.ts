import type { FieldIssue } from "@/lib/errors";
import type { Answer } from "@/lib/toolnexus/types";

/** The part of an Answer a form produces; the request id is added by whoever submits. */
export type AnswerDraft = Omit<Answer, "id">;

/** `issues` address fields by JSON pointer into the submitted data (server-side validation). */
export type SubmitOutcome = { ok: true } | { ok: false; message: string; issues?: FieldIssue[] };

export type SubmitAnswer = (draft: AnswerDraft) => Promise<SubmitOutcome>;
