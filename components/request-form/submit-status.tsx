"use client";

import type { SubmitState } from "./use-answer-submit";

/** The outcome line under a form; `role="alert"` so screen readers hear refusals at once. */
export function SubmitStatus({ state }: { state: SubmitState }) {
  if (state.status === "sent") {
    return (
      <p role="status" className="alert alert-info">
        Answer sent.
      </p>
    );
  }
  if (state.status === "failed") {
    return (
      <p role="alert" className="alert alert-error">
        {state.message}
      </p>
    );
  }
  return null;
}
