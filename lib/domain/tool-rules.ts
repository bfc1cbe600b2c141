// Rules per tool: an ordered list of (condition, outcome). The condition is a CEL expression over
// the call; the first rule whose condition holds decides who must agree before the call runs, and
// when none holds the tool's policy applies (ADR 0074).

import type { EscalationStep } from "./escalation";

/**
 * What a matching rule decides. "reviewers" is any reviewer; "group" needs `required` of its
 * members. Both may carry an escalation ladder (ADR 0093), copied onto each request they ask.
 */
export type RuleOutcome =
  | { kind: "free" }
  | { kind: "owner" }
  | { kind: "reviewers"; escalation?: EscalationStep[] }
  | { kind: "group"; group: string; required: number; escalation?: EscalationStep[] }
  | { kind: "blocked" };

export type RuleOutcomeKind = RuleOutcome["kind"];

export const RULE_OUTCOME_KINDS = [
  "free",
  "owner",
  "reviewers",
  "group",
  "blocked",
] as const satisfies readonly RuleOutcomeKind[];

export const RULE_OUTCOME_LABELS: Readonly<Record<RuleOutcomeKind, string>> = {
  free: "Runs freely",
  owner: "The chat's owner approves",
  reviewers: "Any reviewer approves",
  group: "A group approves",
  blocked: "Blocked",
};

/** A condition longer than this is refused when saved. */
export const RULE_CONDITION_MAX_LENGTH = 1000;
/** How many rules one tool may have. */
export const RULES_PER_TOOL_MAX = 20;
/** How many approvals a group outcome may ask for. */
export const RULE_REQUIRED_MAX = 10;

/**
 * A tool name an MCP client sends in a permission prompt (`Bash`, `mcp__server__tool`), as an
 * admin may give rules to it: 1 to 64 letters, digits, "_", "-", "." or ":".
 */
export const CLIENT_TOOL_NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A group's slug: lower-case letters, digits and "-", starting with a letter or digit. */
export const GROUP_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const GROUP_NAME_MAX_LENGTH = 80;

/** One rule as stored and shown. `position` is its place in the tool's list, from 0. */
export interface ToolRuleRow {
  id: string;
  toolName: string;
  position: number;
  condition: string;
  outcome: RuleOutcome;
  updatedAt: string;
}

/** One rule as an admin writes it. */
export interface ToolRuleDraft {
  condition: string;
  outcome: RuleOutcome;
}

/** Where in a condition something is wrong: 1-based line and column, and the 0-based offset. */
export interface ConditionPosition {
  offset: number;
  line: number;
  column: number;
}

/** What "try it" says about one call: which rule takes it, and why. */
export type RuleTrial =
  | { status: "matched"; position: number; outcome: RuleOutcome; passed: number[] }
  | { status: "no_match"; passed: number[] }
  | { status: "failed"; position: number; error: string; passed: number[] };

/** "Rule 2 (args.amount > 1000)": how the audit and refusals name a rule. */
export function describeRule(rule: { toolName: string; position: number }): string {
  return `${rule.toolName} rule ${rule.position + 1}`;
}

export function describeOutcome(outcome: RuleOutcome): string {
  if (outcome.kind === "group")
    return `${outcome.required} of ${outcome.group} approve${outcome.required === 1 ? "s" : ""}`;
  return RULE_OUTCOME_LABELS[outcome.kind];
}
