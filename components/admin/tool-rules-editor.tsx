"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { EscalationStep } from "@/lib/domain/escalation";
import {
  RULE_CONDITION_MAX_LENGTH,
  RULE_OUTCOME_KINDS,
  RULE_OUTCOME_LABELS,
  RULE_REQUIRED_MAX,
  RULES_PER_TOOL_MAX,
  type RuleOutcomeKind,
  type ToolRuleDraft,
} from "@/lib/domain/tool-rules";
import { type ActionResult, type FieldIssue, unsentResult } from "@/lib/errors";
import { EscalationLadderEditor } from "./escalation-ladder-editor";
import { RuleTrialBox, type TryRules } from "./rule-trial-box";

export type SaveRules = (input: {
  toolName: string;
  expected: ToolRuleDraft[];
  rules: ToolRuleDraft[];
}) => Promise<ActionResult<unknown>>;

export interface RulesTool {
  name: string;
  /** The tool's policy in words: what applies when no rule holds. */
  policy: string;
  rules: ToolRuleDraft[];
}

export interface RulesGroup {
  slug: string;
  name: string;
}

interface Row {
  key: number;
  condition: string;
  kind: RuleOutcomeKind;
  group: string;
  required: number;
  escalation: EscalationStep[];
}

function toRow(rule: ToolRuleDraft, key: number): Row {
  const { outcome } = rule;
  return {
    key,
    condition: rule.condition,
    kind: outcome.kind,
    group: outcome.kind === "group" ? outcome.group : "",
    required: outcome.kind === "group" ? outcome.required : 1,
    escalation: "escalation" in outcome ? (outcome.escalation ?? []) : [],
  };
}

function toDraft(row: Row): ToolRuleDraft {
  const ladder = row.escalation.length > 0 ? { escalation: row.escalation } : {};
  const outcome =
    row.kind === "group"
      ? { kind: "group" as const, group: row.group, required: row.required, ...ladder }
      : row.kind === "reviewers"
        ? { kind: "reviewers" as const, ...ladder }
        : { kind: row.kind };
  return { condition: row.condition, outcome };
}

const issueAt = (issues: FieldIssue[], index: number) =>
  issues.filter((issue) => issue.path.startsWith(`/rules/${index}/`));

/** One tool's ordered rules: edit, reorder, add and remove, then save the list whole. */
export function ToolRulesEditor({
  tool,
  groups,
  save,
  trial,
}: {
  tool: RulesTool;
  groups: RulesGroup[];
  save: SaveRules;
  trial: TryRules;
}) {
  const router = useRouter();
  const [rows, setRows] = useState<Row[]>(() => tool.rules.map(toRow));
  const [nextKey, setNextKey] = useState(tool.rules.length);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; issues: FieldIssue[] } | null>(null);
  const drafts = rows.map(toDraft);
  const changed = JSON.stringify(drafts) !== JSON.stringify(tool.rules);

  const update = (key: number, change: Partial<Row>) =>
    setRows((list) => list.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const move = (index: number, by: number) =>
    setRows((list) => {
      const next = [...list];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });

  const onSave = async () => {
    setBusy(true);
    setOutcome(null);
    const result = await save({ toolName: tool.name, expected: tool.rules, rules: drafts }).catch(() =>
      unsentResult("The rules could not be saved. Please try again."),
    );
    setBusy(false);
    if (!result.ok) return setOutcome({ ok: false, text: result.error.message, issues: result.error.issues });
    setOutcome({ ok: true, text: `Saved ${rows.length} rule${rows.length === 1 ? "" : "s"}.`, issues: [] });
    router.refresh();
  };

  return (
    <div className="stack">
      {rows.length === 0 && <p className="muted">No rules: every call runs under the tool's policy.</p>}
      <ol className="stack admin-rules">
        {rows.map((row, index) => {
          const label = `rule ${index + 1} of ${tool.name}`;
          const all = issueAt(outcome?.issues ?? [], index);
          const ladderBase = `/rules/${index}/outcome/escalation`;
          const issues = all.filter((issue) => !issue.path.startsWith(`${ladderBase}/`));
          return (
            <li key={row.key} className="stack admin-rule" data-rule={index + 1}>
              <label>
                Condition of {label} (CEL)
                <textarea
                  rows={2}
                  value={row.condition}
                  spellCheck={false}
                  maxLength={RULE_CONDITION_MAX_LENGTH * 2}
                  placeholder="args.amount > 1000"
                  disabled={busy}
                  aria-invalid={issues.some((issue) => issue.path.endsWith("/condition"))}
                  onChange={(event) => update(row.key, { condition: event.target.value })}
                />
              </label>
              <div className="admin-cell-actions">
                <label>
                  Outcome of {label}
                  <select
                    value={row.kind}
                    disabled={busy}
                    onChange={(event) => update(row.key, { kind: event.target.value as RuleOutcomeKind })}
                  >
                    {RULE_OUTCOME_KINDS.map((kind) => (
                      <option key={kind} value={kind}>
                        {RULE_OUTCOME_LABELS[kind]}
                      </option>
                    ))}
                  </select>
                </label>
                {row.kind === "group" && (
                  <>
                    <label>
                      Group of {label}
                      <select
                        value={row.group}
                        disabled={busy}
                        onChange={(event) => update(row.key, { group: event.target.value })}
                      >
                        <option value="">Choose a group</option>
                        {groups.map((group) => (
                          <option key={group.slug} value={group.slug}>
                            {group.name} ({group.slug})
                          </option>
                        ))}
                      </select>
                    </label>
                    <label>
                      Approvals needed for {label}
                      <input
                        type="number"
                        min={1}
                        max={RULE_REQUIRED_MAX}
                        value={row.required}
                        disabled={busy}
                        onChange={(event) => update(row.key, { required: Number(event.target.value) })}
                      />
                    </label>
                  </>
                )}
              </div>
              {(row.kind === "group" || row.kind === "reviewers") && (
                <EscalationLadderEditor
                  label={label}
                  steps={row.escalation}
                  onChange={(escalation) => update(row.key, { escalation })}
                  issues={all}
                  base={ladderBase}
                  disabled={busy}
                />
              )}
              <div className="admin-cell-actions">
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy || index === 0}
                  onClick={() => move(index, -1)}
                >
                  Move {label} up
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy || index === rows.length - 1}
                  onClick={() => move(index, 1)}
                >
                  Move {label} down
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy}
                  onClick={() => setRows((list) => list.filter((item) => item.key !== row.key))}
                >
                  Remove {label}
                </button>
              </div>
              {issues.map((issue) => (
                <span key={issue.path} role="alert" className="admin-cell-note admin-cell-error">
                  {issue.message}
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
          disabled={busy || rows.length >= RULES_PER_TOOL_MAX}
          onClick={() => {
            setRows((list) => [
              ...list,
              { key: nextKey, condition: "", kind: "reviewers", group: "", required: 1, escalation: [] },
            ]);
            setNextKey((key) => key + 1);
          }}
        >
          Add a rule to {tool.name}
        </button>
        <button type="button" className="button" disabled={busy || !changed} onClick={onSave}>
          Save rules of {tool.name}
        </button>
      </div>
      <span role="status" className="admin-cell-note">
        {outcome?.ok && outcome.text}
      </span>
      {outcome && !outcome.ok && (
        <span role="alert" className="admin-cell-note admin-cell-error">
          {outcome.text}
        </span>
      )}
      <RuleTrialBox toolName={tool.name} rules={drafts} policy={tool.policy} trial={trial} />
    </div>
  );
}
