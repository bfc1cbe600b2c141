"use client";

import { useId, useState } from "react";
import { describeOutcome, type RuleTrial, type ToolRuleDraft } from "@/lib/domain/tool-rules";
import { type ActionResult, type FieldIssue, unsentResult } from "@/lib/errors";

export type TryRules = (input: {
  toolName: string;
  rules: ToolRuleDraft[];
  args: string;
  asEmail?: string;
}) => Promise<ActionResult<RuleTrial>>;

const ruleList = (positions: number[]) => positions.map((position) => position + 1).join(", ");

/** Says in words which rule takes the call, and why. */
export function explainTrial(trial: RuleTrial, rules: readonly ToolRuleDraft[], policy: string): string {
  const skipped =
    trial.passed.length === 0
      ? ""
      : ` Rule${trial.passed.length === 1 ? "" : "s"} ${ruleList(trial.passed)} did not hold.`;
  if (trial.status === "matched")
    return `Rule ${trial.position + 1} takes it: ${rules[trial.position]?.condition ?? ""} holds, so ${describeOutcome(trial.outcome).toLowerCase()}.${skipped}`;
  if (trial.status === "failed")
    return `Rule ${trial.position + 1} cannot be judged (${trial.error}), so the call would be refused.${skipped}`;
  return `No rule holds, so the tool's policy applies: ${policy.toLowerCase()}.${skipped}`;
}

/** "Try it": pastes a call's arguments and shows which of the rules, as edited, would take it. */
export function RuleTrialBox({
  toolName,
  rules,
  policy,
  trial,
}: {
  toolName: string;
  rules: ToolRuleDraft[];
  /** The tool's policy, in words, for when no rule holds. */
  policy: string;
  trial: TryRules;
}) {
  const id = useId();
  const [args, setArgs] = useState("{}");
  const [asEmail, setAsEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; issues: FieldIssue[] } | null>(null);

  const onTry = async () => {
    setBusy(true);
    setOutcome(null);
    const result = await trial({
      toolName,
      rules,
      args,
      ...(asEmail.trim() ? { asEmail: asEmail.trim() } : {}),
    }).catch(() => unsentResult("The trial could not be sent. Please try again."));
    setBusy(false);
    setOutcome(
      result.ok
        ? { ok: true, text: explainTrial(result.value, rules, policy), issues: [] }
        : { ok: false, text: result.error.message, issues: result.error.issues },
    );
  };

  const argsIssue = outcome?.issues.find((issue) => issue.path === "/args");
  return (
    <fieldset className="stack admin-rule-trial">
      <legend>Try it</legend>
      <label>
        Arguments of a call to {toolName} (JSON)
        <textarea
          rows={3}
          value={args}
          spellCheck={false}
          disabled={busy}
          aria-invalid={argsIssue !== undefined}
          aria-describedby={argsIssue ? `${id}-args-error` : undefined}
          onChange={(event) => setArgs(event.target.value)}
        />
      </label>
      {argsIssue && (
        <span id={`${id}-args-error`} className="admin-cell-note admin-cell-error">
          {argsIssue.message}
        </span>
      )}
      <label>
        Made by (email; empty: you)
        <input
          type="email"
          value={asEmail}
          disabled={busy}
          onChange={(event) => setAsEmail(event.target.value)}
        />
      </label>
      <div className="admin-cell-actions">
        <button type="button" className="button button-secondary" disabled={busy} onClick={onTry}>
          Try the rules
        </button>
      </div>
      <p role="status" className="admin-cell-note" data-trial-result>
        {outcome?.ok && outcome.text}
      </p>
      {outcome && !outcome.ok && (
        <p role="alert" className="admin-cell-note admin-cell-error">
          {outcome.text}
        </p>
      )}
    </fieldset>
  );
}
