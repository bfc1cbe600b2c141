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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The approval's own note field, when its schema has one (the tool gate's `note`): the card's one
 * note box fills it on Approve, so the schema form does not show it a second time. A tool's
 * argument of the same name sits inside `arguments` and is untouched.
 */
function schemaNote(schema: Record<string, unknown> | undefined): { maxLength?: number } | undefined {
  const note = isObject(schema?.properties) ? schema.properties.note : undefined;
  if (!isObject(note) || note.type !== "string") return undefined;
  return typeof note.maxLength === "number" ? { maxLength: note.maxLength } : {};
}

/**
 * Approve (optionally with edited values) or decline. One note box serves both: the approval's
 * note, or the reason the agent reads when it is declined. The buttons and the note form the
 * decision bar, at the top on a wide screen and held at the bottom of a phone's screen
 * (decision-card.css); the values below read as text until the reviewer edits them.
 */
export function ApprovalForm({ data, args, submit, onSent }: ApprovalFormProps) {
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const [note, setNote] = useState("");
  const [editing, setEditing] = useState(false);
  const noteId = useId();
  const edit = readApprovalEdit(data, args);
  const idPrefix = `approval${noteId.replace(/:/g, "")}`;
  const formId = `${idPrefix}-form`;
  const noteField = schemaNote(edit?.schema);
  const noteMax = Math.min(DECLINE_REASON_MAX_CHARS, noteField?.maxLength ?? DECLINE_REASON_MAX_CHARS);
  // The inbox's `e` goes to this field (its id as the schema form names it).
  const likely = edit ? likelyFieldPath(edit.schema) : undefined;

  const approve = (values?: Record<string, unknown>) => {
    const text = note.trim();
    if (!values) return void send({ ok: true, ...(text ? { data: { note: text } } : {}) });
    void send({ ok: true, data: { ...values, ...(text && noteField ? { note: text } : {}) } });
  };
  const decline = () => {
    const text = note.trim();
    void send({ ok: false, reason: "declined", ...(text ? { data: { reason: text } } : {}) });
  };

  return (
    <div
      className="tn-approval decision-approval"
      data-shortcut="approval"
      {...(likely ? { "data-likely-field": [idPrefix, ...likely].join("_") } : {})}
    >
      <div className="decision-bar">
        <div className="decision-note">
          <label htmlFor={noteId}>Note (optional)</label>
          <textarea
            id={noteId}
            value={note}
            rows={1}
            maxLength={noteMax}
            aria-describedby={`${noteId}-hint`}
            disabled={busy}
            data-shortcut="decline-reason"
            onChange={(event) => setNote(event.target.value)}
          />
          <p id={`${noteId}-hint`} className="muted field-hint">
            Sent with your approval, or to the agent as the reason if you decline.
          </p>
        </div>
        <div className="tn-form-buttons decision-buttons">
          <button
            type={edit ? "submit" : "button"}
            className="button"
            disabled={busy}
            data-shortcut="approve"
            {...(edit ? { form: formId } : { onClick: () => approve() })}
          >
            Approve
            <ShortcutHint keys="a" />
          </button>
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
      {edit && (
        // Focusing a field (a click, Tab, the inbox's `e`) is editing it.
        <section
          className={`decision-values ${editing ? "decision-values-editing" : "decision-values-reading"}`}
          aria-labelledby={`${idPrefix}-values`}
          onFocus={(event) => {
            if ((event.target as HTMLElement).matches("input:not([type=checkbox]), select, textarea"))
              setEditing(true);
          }}
        >
          <div className="decision-values-head">
            <p id={`${idPrefix}-values`} className="decision-values-title">
              Values
            </p>
            <button
              type="button"
              className="button button-secondary decision-edit"
              aria-pressed={editing}
              disabled={busy}
              onClick={() => setEditing(!editing)}
            >
              {editing ? "Done editing" : "Edit"}
            </button>
          </div>
          <SchemaAnswerForm
            schema={edit.schema}
            uiSchema={noteField ? { note: { "ui:widget": "hidden" } } : {}}
            initial={edit.initial}
            state={state}
            disabled={busy}
            idPrefix={idPrefix}
            formId={formId}
            title="Values"
            onValid={(values) => approve(values)}
          >
            {/* The bar's Approve submits this form from outside it (its `form` attribute). */}
            <span hidden />
          </SchemaAnswerForm>
        </section>
      )}
    </div>
  );
}
