"use client";

import { Component, type ReactNode, useId } from "react";
import { DeclineButton } from "./decline-button";
import { elicitationFormSchema, secretLookingFields } from "./elicitation-schema";
import { JsonAnswerForm } from "./json-answer-form";
import type { SubmitAnswer } from "./request-view";
import { SchemaAnswerForm } from "./schema-answer-form";
import { SubmitStatus } from "./submit-status";
import { useAnswerSubmit } from "./use-answer-submit";

interface ElicitationFormProps {
  /** The schema the MCP server requested. */
  schema: unknown;
  server?: string;
  submit: SubmitAnswer;
  onSent?: () => void;
}

/** If the form library still fails on a schema that passed the checks, the JSON box takes over. */
class FormFallback extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function SecretWarning({ fields, server }: { fields: string[]; server?: string }) {
  if (fields.length === 0) return null;
  return (
    <p role="note" className="alert alert-warn">
      This form asks for {fields.map((name) => `“${name}”`).join(", ")}, which looks like a password, token or
      key. MCP servers must not ask for secrets through a form
      {server ? ` (this one comes from the “${server}” server)` : ""}: do not enter one here.
    </p>
  );
}

function JsonFallback({
  reason,
  schema,
  submit,
  onSent,
}: { reason: string; schema: unknown } & ElicitationFormProps) {
  return (
    <div className="tn-schema-request">
      <p className="muted">This form cannot be shown ({reason}). Answer with a JSON object instead.</p>
      <details>
        <summary>Requested schema</summary>
        <pre className="tn-json">{JSON.stringify(schema, null, 2)}</pre>
      </details>
      <JsonAnswerForm submit={submit} onSent={onSent} declinable />
    </div>
  );
}

/**
 * An MCP server's form elicitation: drawn from its restricted schema, with Decline next to
 * Submit, and a warning when a field looks like it asks for a secret.
 */
export function ElicitationForm(props: ElicitationFormProps) {
  const { schema, server, submit, onSent } = props;
  const { state, send, busy } = useAnswerSubmit(submit, onSent);
  const prefix = `elicit${useId().replace(/:/g, "")}`;
  const form = elicitationFormSchema(schema);
  const warning = <SecretWarning fields={secretLookingFields(schema)} server={server} />;
  if (!form.renderable) {
    return (
      <>
        {warning}
        <JsonFallback {...props} reason={form.reason} />
      </>
    );
  }
  return (
    <div className="tn-schema-request">
      {warning}
      <FormFallback fallback={<JsonFallback {...props} reason="the form could not be drawn" />}>
        <SchemaAnswerForm
          schema={form.schema}
          uiSchema={form.uiSchema}
          state={state}
          disabled={busy}
          idPrefix={prefix}
          onValid={(data) => void send({ ok: true, data })}
        >
          <div className="tn-form-buttons">
            <button type="submit" className="button" disabled={busy}>
              Submit
            </button>
            <DeclineButton busy={busy} send={send} />
          </div>
        </SchemaAnswerForm>
      </FormFallback>
      <SubmitStatus state={state} />
    </div>
  );
}
