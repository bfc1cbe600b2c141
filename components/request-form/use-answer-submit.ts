"use client";

import { startTransition, useActionState } from "react";
import { type ActionResult, unsentResult } from "@/lib/errors";
import type { AnswerDraft, SubmitAnswer } from "./request-view";

/** What a form shows about its answer: nothing yet (null), or what the action said. */
export type AnswerState = ActionResult<unknown> | null;

const notSent = unsentResult("The answer could not be sent. Please try again.");

/**
 * Sends a form's answer through `submit` as a React action. A click that lands before the
 * button is disabled is queued behind the first and sends nothing once that one got through;
 * the server refuses duplicates anyway.
 */
export function useAnswerSubmit(submit: SubmitAnswer, onSent?: () => void) {
  const [state, dispatch, pending] = useActionState(
    async (previous: AnswerState, draft: AnswerDraft): Promise<AnswerState> => {
      if (previous?.ok) return previous;
      try {
        const result = await submit(draft);
        if (result.ok) onSent?.();
        return result;
      } catch {
        return notSent;
      }
    },
    null,
  );
  const send = (draft: AnswerDraft) => startTransition(() => dispatch(draft));
  return { state, send, busy: pending || state?.ok === true };
}
