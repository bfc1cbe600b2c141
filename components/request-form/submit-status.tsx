"use client";

import type { AnswerState } from "./use-answer-submit";

/** The outcome line under a form; `role="alert"` so screen readers hear refusals at once. */
export function SubmitStatus({ state }: { state: AnswerState }) {
  if (state?.ok) {
    return (
      <p role="status" className="alert alert-info">
        Answer sent.
      </p>
    );
  }
  if (state && !state.ok) {
    return (
      <p role="alert" className="alert alert-error">
        {state.error.message}
      </p>
    );
  }
  return null;
}
