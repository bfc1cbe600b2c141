"use client";

import { useId, useState } from "react";
import { parseJsonObject } from "./parse-json-object";
import type { SubmitAnswer } from "./request-view";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

/** Fallback for request kinds this app does not know: the answer is any JSON object. */
export function JsonAnswerForm({ submit, onSent }: { submit: SubmitAnswer; onSent?: () => void }) {
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const [text, setText] = useState("{}");
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseJsonObject(text);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    void send({ ok: true, data: parsed.value });
  };

  return (
    <form className="tn-json-form" onSubmit={onSubmit} noValidate>
      <label htmlFor={id}>Answer (JSON object)</label>
      <textarea
        id={id}
        rows={5}
        value={text}
        disabled={busy}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        Send answer
      </button>
      <SubmitStatus state={state} />
    </form>
  );
}
