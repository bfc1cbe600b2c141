"use client";

import { useId, useState } from "react";
import { ANSWER_DATA_MAX_BYTES, answerDataBytes, formatKilobytes } from "@/lib/domain/answer-limits";
import { DeclineButton } from "./decline-button";
import { parseJsonObject } from "./parse-json-object";
import type { SubmitAnswer } from "./request-view";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

/**
 * Fallback for request kinds this app does not know, and for forms it cannot draw: the answer
 * is any JSON object (the server still checks it against the request's schema).
 */
export function JsonAnswerForm({
  submit,
  onSent,
  declinable = false,
}: {
  submit: SubmitAnswer;
  onSent?: () => void;
  /** Offer a Decline button next to Send (an MCP server's form may be turned down). */
  declinable?: boolean;
}) {
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
    if (answerDataBytes(parsed.value) > ANSWER_DATA_MAX_BYTES) {
      setError(`An answer can be at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)}.`);
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
        aria-describedby={error ? `${id}-error ${id}-limit` : `${id}-limit`}
        onChange={(event) => setText(event.target.value)}
      />
      <p id={`${id}-limit`} className="muted field-hint">
        Up to {formatKilobytes(ANSWER_DATA_MAX_BYTES)}.
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        Send answer
      </button>
      {declinable && <DeclineButton busy={busy} send={send} />}
      <SubmitStatus state={state} />
    </form>
  );
}
