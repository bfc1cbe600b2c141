"use client";

import { useId, useState } from "react";
import { ShortcutHint } from "@/components/shortcut-hint";
import { DECLINE_REASON_MAX_CHARS } from "@/lib/domain/answer-limits";
import { readApprovalEdit } from "@/lib/domain/approval-edit";
import { likelyFieldPath } from "@/lib/domain/likely-field";
import type { SubmitAnswer } from "./request-view";
import { SchemaAnswerForm } from "./schema-answer-form";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

interface ApprovalFormProps {
  data: Record<string, unknown> | undefined;
  args: Record<string, unknown>;
  submit: SubmitAnswer;
  onSent?: () => void;
}

/** Approve (optionally with edited arguments) or decline with a reason the model will read. */
export function ApprovalForm({ data, args, submit, onSent }: ApprovalFormProps) {
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const edit = readApprovalEdit(data, args);
  const idPrefix = `approval${reasonId.replace(/:/g, "")}`;
  // The inbox's `e` goes to this field (its id as the schema form names it).
  const likely = edit ? likelyFieldPath(edit.schema) : undefined;

  const decline = () => {
    const text = reason.trim();
    void send({ ok: false, reason: "declined", ...(text ? { data: { reason: text } } : {}) });
  };

  return (
    <div
      className="tn-approval"
      data-shortcut="approval"
      {...(likely ? { "data-likely-field": [idPrefix, ...likely].join("_") } : {})}
    >
      {edit ? (
        <SchemaAnswerForm
          schema={edit.schema}
          initial={edit.initial}
          state={state}
          disabled={busy}
          idPrefix={idPrefix}
          title="Arguments"
          onValid={(values) => void send({ ok: true, data: values })}
        >
          <button type="submit" className="button" disabled={busy} data-shortcut="approve">
            Approve
            <ShortcutHint keys="a" />
          </button>
        </SchemaAnswerForm>
      ) : (
        <button
          type="button"
          className="button"
          disabled={busy}
          data-shortcut="approve"
          onClick={() => void send({ ok: true })}
        >
          Approve
          <ShortcutHint keys="a" />
        </button>
      )}
      <div className="tn-decline">
        <label htmlFor={reasonId}>Reason for declining (optional)</label>
        <textarea
          id={reasonId}
          value={reason}
          rows={2}
          maxLength={DECLINE_REASON_MAX_CHARS}
          aria-describedby={`${reasonId}-limit`}
          disabled={busy}
          data-shortcut="decline-reason"
          onChange={(event) => setReason(event.target.value)}
        />
        <p id={`${reasonId}-limit`} className="muted field-hint">
          Up to {DECLINE_REASON_MAX_CHARS.toLocaleString("en")} characters; the agent reads it.
        </p>
        <button
          type="button"
          className="button button-danger"
          disabled={busy}
          data-shortcut="decline"
          onClick={decline}
        >
          Decline
          <ShortcutHint keys="d" />
        </button>
      </div>
      <SubmitStatus state={state} />
    </div>
  );
}
