import type { ActionResult } from "@/lib/errors";
import type { Answer } from "@/lib/toolnexus/types";

/** The part of an Answer a form produces; the request id is added by whoever submits. */
export type AnswerDraft = Omit<Answer, "id">;

/**
 * Sends a form's answer; the result is the answer action's own. A refusal's `issues` address
 * fields by JSON pointer into the submitted data (server-side validation).
 */
export type SubmitAnswer = (draft: AnswerDraft) => Promise<ActionResult<unknown>>;
