"use client";

import { useCallback, useRef, useState } from "react";
import type { FieldIssue } from "@/lib/errors";
import type { AnswerDraft, SubmitAnswer } from "./request-view";

export type SubmitState =
  | { status: "idle" }
  | { status: "submitting" }
  | { status: "sent" }
  | { status: "failed"; message: string; issues: FieldIssue[] };

/**
 * Wraps a submit function with the state a form shows. A ref guards against a second click
 * landing before React re-renders the disabled button; the server refuses duplicates anyway.
 */
export function useAnswerSubmit(submit: SubmitAnswer, onSent?: () => void) {
  const [state, setState] = useState<SubmitState>({ status: "idle" });
  const inFlight = useRef(false);

  const send = useCallback(
    async (draft: AnswerDraft) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setState({ status: "submitting" });
      try {
        const outcome = await submit(draft);
        if (outcome.ok) {
          setState({ status: "sent" });
          onSent?.();
        } else {
          setState({ status: "failed", message: outcome.message, issues: outcome.issues ?? [] });
        }
      } catch {
        setState({
          status: "failed",
          message: "The answer could not be sent. Please try again.",
          issues: [],
        });
      } finally {
        inFlight.current = false;
      }
    },
    [submit, onSent],
  );

  return { state, send, busy: state.status === "submitting" || state.status === "sent" };
}
