"use client";

import {
  ESCALATION_REASON_MAX_LENGTH,
  ESCALATION_STEPS_MAX,
  type EscalationAction,
  type EscalationStep,
} from "@/lib/domain/escalation";
import { RULE_REQUIRED_MAX } from "@/lib/domain/tool-rules";
import type { FieldIssue } from "@/lib/errors";

type ActionKind = "remind" | "add" | "decline" | "expire";

const ACTION_LABELS: Readonly<Record<ActionKind, string>> = {
  remind: "Remind the addressees",
  add: "Add a group or person",
  decline: "Decline it",
  expire: "Let it expire",
};

function kindOf(action: EscalationAction): ActionKind {
  if (typeof action === "string") return action;
  return "add" in action ? "add" : "decline";
}

function actionOf(kind: ActionKind, previous: EscalationAction): EscalationAction {
  if (kind === "remind" || kind === "expire") return kind;
  if (kind === "add") return typeof previous === "object" && "add" in previous ? previous : { add: "" };
  return typeof previous === "object" && "decline" in previous ? previous : { decline: "" };
}

/** The label of the field an issue's path ends in, as the step's inputs are labelled. */
function fieldOf(path: string, name: string): string {
  if (path.endsWith("/after")) return `After (${name})`;
  if (path.endsWith("/action/add")) return `Group slug or email (${name})`;
  if (path.endsWith("/action/required")) return `Approvals needed (${name})`;
  if (path.endsWith("/action/decline")) return `Reason (${name})`;
  return `Action of ${name}`;
}

/**
 * A rule's escalation ladder (ADR 0093): what happens, step by step, while nobody answers the
 * calls it sends. `issues` are the refusals under `base` ("/rules/0/outcome/escalation").
 */
export function EscalationLadderEditor({
  label,
  steps,
  onChange,
  issues,
  base,
  disabled,
}: {
  label: string;
  steps: EscalationStep[];
  onChange: (steps: EscalationStep[]) => void;
  issues: FieldIssue[];
  base: string;
  disabled: boolean;
}) {
  const set = (index: number, step: EscalationStep) =>
    onChange(steps.map((item, at) => (at === index ? step : item)));
  return (
    <fieldset className="stack admin-ladder">
      <legend>Escalation of {label}</legend>
      {steps.length === 0 && <p className="muted">No steps: the request waits until it expires.</p>}
      <ol className="stack">
        {steps.map((step, index) => {
          const name = `step ${index + 1} of ${label}`;
          const kind = kindOf(step.action);
          const mine = issues.filter((issue) => issue.path.startsWith(`${base}/${index}/`));
          const invalid = (field: string) => mine.some((issue) => issue.path.endsWith(field));
          const { action } = step;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity but their place
            <li key={index} className="admin-cell-actions" data-step={index + 1}>
              <label>
                After ({name})
                <input
                  value={step.after}
                  size={6}
                  placeholder="15m"
                  disabled={disabled}
                  aria-invalid={invalid("/after")}
                  onChange={(event) => set(index, { ...step, after: event.target.value })}
                />
              </label>
              <label>
                Action of {name}
                <select
                  value={kind}
                  disabled={disabled}
                  aria-invalid={invalid("/action")}
                  onChange={(event) =>
                    set(index, { ...step, action: actionOf(event.target.value as ActionKind, action) })
                  }
                >
                  {(Object.keys(ACTION_LABELS) as ActionKind[]).map((option) => (
                    <option key={option} value={option}>
                      {ACTION_LABELS[option]}
                    </option>
                  ))}
                </select>
              </label>
              {typeof action === "object" && "add" in action && (
                <>
                  <label>
                    Group slug or email ({name})
                    <input
                      value={action.add}
                      disabled={disabled}
                      aria-invalid={invalid("/add")}
                      onChange={(event) =>
                        set(index, { ...step, action: { ...action, add: event.target.value } })
                      }
                    />
                  </label>
                  <label>
                    Approvals needed ({name})
                    <input
                      type="number"
                      min={1}
                      max={RULE_REQUIRED_MAX}
                      value={action.required ?? 1}
                      disabled={disabled}
                      aria-invalid={invalid("/required")}
                      onChange={(event) =>
                        set(index, { ...step, action: { ...action, required: Number(event.target.value) } })
                      }
                    />
                  </label>
                </>
              )}
              {typeof action === "object" && "decline" in action && (
                <label>
                  Reason ({name})
                  <input
                    value={action.decline}
                    maxLength={ESCALATION_REASON_MAX_LENGTH}
                    disabled={disabled}
                    aria-invalid={invalid("/decline")}
                    onChange={(event) => set(index, { ...step, action: { decline: event.target.value } })}
                  />
                </label>
              )}
              <button
                type="button"
                className="button button-secondary"
                disabled={disabled}
                onClick={() => onChange(steps.filter((_, at) => at !== index))}
              >
                Remove {name}
              </button>
              {mine.map((issue) => (
                <span key={issue.path} role="alert" className="admin-cell-note admin-cell-error">
                  {fieldOf(issue.path, name)}: {issue.message}
                </span>
              ))}
            </li>
          );
        })}
      </ol>
      <div className="admin-cell-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={disabled || steps.length >= ESCALATION_STEPS_MAX}
          onClick={() => onChange([...steps, { after: "", action: "remind" }])}
        >
          Add an escalation step to {label}
        </button>
      </div>
    </fieldset>
  );
}
