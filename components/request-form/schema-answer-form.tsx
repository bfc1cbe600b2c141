"use client";

import Form, { getDefaultRegistry } from "@rjsf/core";
import type { BaseInputTemplateProps, ErrorListProps, ErrorSchema, RJSFSchema, UiSchema } from "@rjsf/utils";
import type { ReactNode } from "react";
import { localToday, minDateOf } from "./date-floor";
import { humanizeErrors } from "./human-errors";
import { issuesToErrorSchema } from "./issues-to-error-schema";
import { schemaValidator } from "./schema-validator";
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
  /** The form's heading when its schema has no title of its own. */
  title?: string;
  /** The form element's id, for a submit button placed outside it. */
  formId?: string;
}

const { BaseInputTemplate } = getDefaultRegistry().templates;

/**
 * The library's input, marked invalid while its field has errors, so it is announced as such.
 * A schema's first example becomes the placeholder ("e.g. LHR") instead of the library's list of
 * suggestions, which would offer the example as if it were the answer; a date field's
 * `x-minDate` becomes the picker's `min`, so earlier days cannot be picked.
 */
function InputTemplate(props: BaseInputTemplateProps) {
  const { schema, placeholder } = props;
  const { examples, ...rest } = schema;
  const example = Array.isArray(examples) ? examples[0] : undefined;
  const hint =
    placeholder || (typeof example === "string" || typeof example === "number" ? `e.g. ${example}` : "");
  const min = props.type === "date" ? minDateOf(schema, localToday()) : undefined;
  return (
    <BaseInputTemplate
      {...props}
      schema={rest}
      placeholder={hint}
      {...(min ? { min } : {})}
      aria-invalid={props.rawErrors?.length ? true : undefined}
    />
  );
}

/**
 * The messages sit under their fields, once; above the form only a line saying how many fields
 * to look at, so a screen reader hears that the submit was refused.
 */
function ErrorSummary({ errors }: ErrorListProps) {
  const fields = new Set(errors.map((error) => error.property ?? "")).size;
  return (
    <p role="alert" className="alert alert-error tn-error-summary">
      {fields === 1 ? "One field needs a change" : `${fields} fields need a change`}: see the highlighted{" "}
      {fields === 1 ? "field" : "fields"} below.
    </p>
  );
}

/** Focus goes to the first field with an error as the page shows them, not as the validator found them. */
function focusFirstInvalid(rootId: string) {
  requestAnimationFrame(() => {
    const form = document.getElementById(rootId)?.closest("form");
    const field = form?.querySelector<HTMLElement>(
      ".rjsf-field-error input, .rjsf-field-error select, .rjsf-field-error textarea, [aria-invalid='true']",
    );
    field?.focus();
  });
}

/**
 * A JSON-Schema form validated in the browser, its fields in the order the schema lists them.
 * `noHtml5Validate` matters: with it on, the browser's own `required` check would block submit
 * and the field errors would never show.
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
  title = "Your answer",
  formId,
}: SchemaAnswerFormProps) {
  const extraErrors =
    state && !state.ok && state.error.issues.length > 0
      ? (issuesToErrorSchema(state.error.issues) as ErrorSchema)
      : undefined;
  const heading =
    typeof uiSchema?.["ui:title"] === "string"
      ? uiSchema["ui:title"]
      : typeof schema.title === "string"
        ? schema.title
        : title;
  return (
    <Form
      schema={schema as RJSFSchema}
      uiSchema={{ ...(uiSchema as UiSchema | undefined), "ui:title": heading }}
      validator={schemaValidator}
      initialFormData={initial}
      idPrefix={idPrefix}
      {...(formId ? { id: formId } : {})}
      noHtml5Validate
      showErrorList="top"
      templates={{ ErrorListTemplate: ErrorSummary, BaseInputTemplate: InputTemplate }}
      transformErrors={humanizeErrors}
      focusOnFirstError={() => focusFirstInvalid(idPrefix)}
      disabled={disabled}
      extraErrors={extraErrors}
      onSubmit={({ formData }) => onValid((formData ?? {}) as Record<string, unknown>)}
      className="tn-schema-form"
    >
      {children}
    </Form>
  );
}
