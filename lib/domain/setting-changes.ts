import { isToolPolicy, TOOL_POLICY_LABELS } from "./tool-policy";

// The admin's changes to how requests are decided, as the audit page lists them beside the
// answers: tool policies, tool rules, approver groups and the built-in tools. Each is an audit
// entry written with the change itself; this file only names the kinds and says them in words.

export const SETTING_CHANGE_KINDS = ["policy", "rules", "group", "builtin"] as const;

export type SettingChangeKind = (typeof SETTING_CHANGE_KINDS)[number];

export const SETTING_CHANGE_LABEL: Readonly<Record<SettingChangeKind, string>> = {
  policy: "Tool policies",
  rules: "Tool rules",
  group: "Approver groups",
  builtin: "Built-in tools",
};

/** The audit actions each kind lists. */
export const SETTING_CHANGE_ACTIONS: Readonly<Record<SettingChangeKind, readonly string[]>> = {
  policy: ["tool.policy_changed"],
  rules: ["tool.rules_changed"],
  group: [
    "approver_group.created",
    "approver_group.renamed",
    "approver_group.deleted",
    "approver_group.member_added",
    "approver_group.member_removed",
  ],
  builtin: ["tool.builtin_enabled", "tool.builtin_disabled"],
};

export function settingChangeKindOf(action: string): SettingChangeKind | undefined {
  return SETTING_CHANGE_KINDS.find((kind) => SETTING_CHANGE_ACTIONS[kind].includes(action));
}

/** One change as the audit page lists it. */
export interface SettingChangeRow {
  id: string;
  at: string;
  actor: { id: string; name: string } | null;
  kind: SettingChangeKind;
  action: string;
  targetId: string;
  detail: Record<string, unknown>;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function policyWords(value: unknown, defaultPolicy: unknown): string {
  if (value === "default")
    return isToolPolicy(defaultPolicy)
      ? `its default (${TOOL_POLICY_LABELS[defaultPolicy].toLowerCase()})`
      : "its default";
  return isToolPolicy(value) ? TOOL_POLICY_LABELS[value].toLowerCase() : "unknown";
}

function count(list: unknown, one: string): string {
  const n = Array.isArray(list) ? list.length : 0;
  return n === 1 ? `1 ${one}` : `${n} ${one}s`;
}

/** What a change did, in a sentence; the tool or group it is about is named by the row. */
export function describeSettingChange(row: Pick<SettingChangeRow, "action" | "detail">): string {
  const { detail } = row;
  switch (row.action) {
    case "tool.policy_changed":
      return `Policy changed from ${policyWords(detail.from, detail.defaultPolicy)} to ${policyWords(detail.to, detail.defaultPolicy)}.`;
    case "tool.rules_changed":
      return `Rules changed from ${count(detail.from, "rule")} to ${count(detail.to, "rule")}.`;
    case "tool.builtin_enabled":
      return "Switched on for every chat.";
    case "tool.builtin_disabled":
      return "Switched off.";
    case "approver_group.created":
      return `Group created: ${text(detail.name)}.`;
    case "approver_group.renamed":
      return `Renamed from ${text(detail.from)} to ${text(detail.to)}.`;
    case "approver_group.deleted":
      return `Group deleted: ${text(detail.name)}.`;
    case "approver_group.member_added":
      return `Member added: ${text(detail.email) || "a user"}.`;
    case "approver_group.member_removed":
      return `Member removed: ${text(detail.email) || "a user"}.`;
    default:
      return row.action;
  }
}

/** What a change is about: the tool's name, or the group's slug. */
export function settingChangeSubject(row: Pick<SettingChangeRow, "kind" | "targetId" | "detail">): string {
  return row.kind === "group" ? text(row.detail.slug) || row.targetId : row.targetId;
}
