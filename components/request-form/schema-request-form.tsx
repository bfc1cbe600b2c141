"use client";

import { useId } from "react";
import { ANSWER_DATA_MAX_BYTES, formatKilobytes } from "@/lib/domain/answer-limits";
import type { SubmitAnswer } from "./request-view";
import { SchemaAnswerForm } from "./schema-answer-form";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

interface SchemaRequestFormProps {
  schema: Record<string, unknown>;
  submit: SubmitAnswer;
  onSent?: () => void;
}

/** A request whose `data.schema` says what the answer must look like (e.g. `input`). */
export function SchemaRequestForm({ schema, submit, onSent }: SchemaRequestFormProps) {
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const prefix = `answer${useId().replace(/:/g, "")}`;
  return (
    <div className="tn-schema-request">
      <SchemaAnswerForm
        schema={schema}
        state={state}
        disabled={busy}
        idPrefix={prefix}
        onValid={(data) => void send({ ok: true, data })}
      >
        <button type="submit" className="button" disabled={busy}>
          Submit
        </button>
      </SchemaAnswerForm>
      <p className="muted field-hint">
        The answer can be up to {formatKilobytes(ANSWER_DATA_MAX_BYTES)} in all.
      </p>
      <SubmitStatus state={state} />
    </div>
  );
}
