"use client";

import Form from "@rjsf/core";
import type { ErrorSchema, RJSFSchema, UiSchema } from "@rjsf/utils";
import validator from "@rjsf/validator-ajv8";
import type { ReactNode } from "react";
import { issuesToErrorSchema } from "./issues-to-error-schema";
import type { AnswerState } from "./use-answer-submit";

interface SchemaAnswerFormProps {
  schema: Record<string, unknown>;
  /** Widget choices, e.g. checkboxes for a multi-select list. */
  uiSchema?: Record<string, unknown>;
  initial?: Record<string, unknown>;
  state: AnswerState;
  disabled: boolean;
  onValid: (data: Record<string, unknown>) => void;
  /** Buttons rendered inside the form; the first submit button triggers validation. */
  children: ReactNode;
  idPrefix: string;
}

/**
 * A JSON-Schema form validated in the browser. `noHtml5Validate` matters: with it on, the
 * browser's own `required` check would block submit and the field errors would never show.
 */
export function SchemaAnswerForm({
  schema,
  uiSchema,
  initial,
  state,
  disabled,
  onValid,
  children,
  idPrefix,
}: SchemaAnswerFormProps) {
  const extraErrors =
    state && !state.ok && state.error.issues.length > 0
      ? (issuesToErrorSchema(state.error.issues) as ErrorSchema)
      : undefined;
  return (
    <Form
      schema={schema as RJSFSchema}
      uiSchema={uiSchema as UiSchema | undefined}
      validator={validator}
      initialFormData={initial}
      idPrefix={idPrefix}
      noHtml5Validate
      showErrorList="top"
      disabled={disabled}
      extraErrors={extraErrors}
      onSubmit={({ formData }) => onValid((formData ?? {}) as Record<string, unknown>)}
      className="tn-schema-form"
    >
      {children}
    </Form>
  );
}
