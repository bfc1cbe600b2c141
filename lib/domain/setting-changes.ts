import { isToolPolicy, TOOL_POLICY_LABELS } from "./tool-policy";
import { utcWords } from "./utc-words";

// The changes to how requests are decided, as the audit page lists them beside the answers:
// tool policies, tool rules, approver groups, the built-in tools, and who covers for whom while
// away (ADR 0098). Each is an audit entry written with the change itself; this file only names
// the kinds and says them in words.

export const SETTING_CHANGE_KINDS = ["policy", "rules", "group", "builtin", "absence"] as const;

export type SettingChangeKind = (typeof SETTING_CHANGE_KINDS)[number];

export const SETTING_CHANGE_LABEL: Readonly<Record<SettingChangeKind, string>> = {
  policy: "Tool policies",
  rules: "Tool rules",
  group: "Approver groups",
  builtin: "Built-in tools",
  absence: "Absences",
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
  absence: ["absence.set", "absence.ended"],
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
  /** Names of the people the change is about, by id: an absence's person and delegate. */
  names: Readonly<Record<string, string>>;
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

function absenceWords(row: Pick<SettingChangeRow, "targetId" | "detail" | "names">): string {
  const person = row.names[row.targetId] ?? "a removed user";
  const delegate = row.names[text(row.detail.delegateId)] ?? "a removed user";
  return `${person} away ${utcWords(row.detail.startsAt)} – ${utcWords(row.detail.endsAt)} UTC, covered by ${delegate}`;
}

/**
 * What a change did, in a sentence; the tool or group it is about is named by the row. An
 * absence names its people from `names`, which the audit's reader fills.
 */
export function describeSettingChange(
  row: Pick<SettingChangeRow, "action" | "detail"> & Partial<Pick<SettingChangeRow, "targetId" | "names">>,
): string {
  const { detail } = row;
  const about = { targetId: row.targetId ?? "", detail, names: row.names ?? {} };
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
    case "absence.set":
      return `${absenceWords(about)}.`;
    case "absence.ended":
      return `Ended early: ${absenceWords(about)}.`;
    default:
      return row.action;
  }
}

/** What a change is about: the tool's name, the group's slug, or the person away. */
export function settingChangeSubject(
  row: Pick<SettingChangeRow, "kind" | "targetId" | "detail"> & Partial<Pick<SettingChangeRow, "names">>,
): string {
  if (row.kind === "group") return text(row.detail.slug) || row.targetId;
  if (row.kind === "absence") return row.names?.[row.targetId] ?? row.targetId;
  return row.targetId;
}
