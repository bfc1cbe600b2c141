import "server-only";
import { type EscalationStep, ladderOf } from "@/lib/domain/escalation";
import {
  RULE_OUTCOME_KINDS,
  type RuleOutcome,
  type ToolRuleDraft,
  type ToolRuleRow,
} from "@/lib/domain/tool-rules";
import { recordAuditEntry } from "./audit";
import type { DbClient, DbTx, InputJson } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";

type RuleRecord = {
  id: string;
  toolName: string;
  position: number;
  condition: string;
  outcome: string;
  groupSlug: string | null;
  required: number;
  escalation: unknown;
  updatedAt: Date;
};

/** A stored outcome back as the union; one this code does not know blocks (fail closed). */
function outcomeOf(row: Pick<RuleRecord, "outcome" | "groupSlug" | "required" | "escalation">): RuleOutcome {
  const ladder = ladderOf(row.escalation);
  const escalation = ladder.length > 0 ? { escalation: ladder } : {};
  if (row.outcome === "group")
    return row.groupSlug
      ? { kind: "group", group: row.groupSlug, required: row.required, ...escalation }
      : { kind: "blocked" };
  if (row.outcome === "reviewers") return { kind: "reviewers", ...escalation };
  const kind = RULE_OUTCOME_KINDS.find((known) => known === row.outcome);
  return kind && kind !== "group" && kind !== "reviewers" ? { kind } : { kind: "blocked" };
}

function toRow(row: RuleRecord): ToolRuleRow {
  return {
    id: row.id,
    toolName: row.toolName,
    position: row.position,
    condition: row.condition,
    outcome: outcomeOf(row),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A ladder as its column stores it: none is NULL, so "which rules have one" stays cheap. */
function ladderColumn(outcome: RuleOutcome): InputJson | undefined {
  const ladder: EscalationStep[] | undefined = "escalation" in outcome ? outcome.escalation : undefined;
  return ladder && ladder.length > 0 ? (ladder as unknown as InputJson) : undefined;
}

function columnsOf(outcome: RuleOutcome) {
  const escalation = ladderColumn(outcome);
  return outcome.kind === "group"
    ? { outcome: "group", groupSlug: outcome.group, required: outcome.required, escalation }
    : { outcome: outcome.kind, groupSlug: null, required: 1, escalation };
}

const ruleSelect = {
  id: true,
  toolName: true,
  position: true,
  condition: true,
  outcome: true,
  groupSlug: true,
  required: true,
  escalation: true,
  updatedAt: true,
} as const;

/** One tool's rules in the order they are tried: one indexed read, made at every gated call. */
export async function listToolRules({
  db,
  toolName,
}: {
  db: DbClient;
  toolName: string;
}): Promise<ToolRuleRow[]> {
  const rows = await db.toolRule.findMany({
    where: { toolName },
    select: ruleSelect,
    orderBy: { position: "asc" },
  });
  return rows.map(toRow);
}

/** Every tool's rules, by tool name, for the admin page. */
export async function listAllToolRules({ db }: { db: DbClient }): Promise<Map<string, ToolRuleRow[]>> {
  const rows = await db.toolRule.findMany({
    select: ruleSelect,
    orderBy: [{ toolName: "asc" }, { position: "asc" }],
  });
  const byTool = new Map<string, ToolRuleRow[]>();
  for (const row of rows) byTool.set(row.toolName, [...(byTool.get(row.toolName) ?? []), toRow(row)]);
  return byTool;
}

/** What a rule is read with to see whether it uses a group (`usesGroup`). */
export const groupUseSelect = {
  toolName: true,
  position: true,
  outcome: true,
  groupSlug: true,
  escalation: true,
} as const;

/** The rules that might use a group: those that address one, and those that may carry a ladder. */
export const groupUseWhere = { outcome: { in: ["reviewers", "group"] } };

/**
 * Whether a rule addresses a group or its escalation ladder adds it: while any rule does, the
 * group cannot be deleted. Ladders are few and short, so they are looked through here.
 */
export function usesGroup(
  rule: { outcome: string; groupSlug: string | null; escalation: unknown },
  slug: string,
): boolean {
  if (rule.outcome === "group" && rule.groupSlug === slug) return true;
  return ladderOf(rule.escalation).some(
    (step) => typeof step.action === "object" && "add" in step.action && step.action.add === slug,
  );
}

/** The rules that use a group, as "refund rule 1" would name them, in tool and list order. */
export async function listRulesUsingGroup({
  db,
  slug,
}: {
  db: DbClient | DbTx;
  slug: string;
}): Promise<{ toolName: string; position: number }[]> {
  const rules = await db.toolRule.findMany({
    where: groupUseWhere,
    select: groupUseSelect,
    orderBy: [{ toolName: "asc" }, { position: "asc" }],
  });
  return rules
    .filter((rule) => usesGroup(rule, slug))
    .map(({ toolName, position }) => ({ toolName, position }));
}

const draftOf = (rule: { condition: string; outcome: RuleOutcome }): ToolRuleDraft => ({
  condition: rule.condition,
  outcome: rule.outcome,
});

const sameRules = (a: readonly ToolRuleDraft[], b: readonly ToolRuleDraft[]) =>
  JSON.stringify(a.map(draftOf)) === JSON.stringify(b.map(draftOf));

export type RulesChange =
  | { outcome: "changed"; from: ToolRuleDraft[]; to: ToolRuleDraft[] }
  | { outcome: "unchanged" }
  /** The rules are no longer the ones the admin edited: someone changed them meanwhile. */
  | { outcome: "stale" }
  /** A group outcome names a group that does not exist (any more). */
  | { outcome: "unknown_group"; index: number; slug: string };

/**
 * Replaces one tool's whole list of rules, if it still is `expected` (what the admin edited), and
 * records old → new in the audit in the same transaction. Conditions must have been checked.
 */
export async function replaceToolRules({
  db,
  toolName,
  expected,
  rules,
  actorId,
}: {
  db: DbClient;
  toolName: string;
  expected: readonly ToolRuleDraft[];
  rules: readonly ToolRuleDraft[];
  actorId: string;
}): Promise<RulesChange> {
  const from = (await listToolRules({ db, toolName })).map(draftOf);
  if (!sameRules(from, expected)) return { outcome: "stale" };
  if (sameRules(from, rules)) return { outcome: "unchanged" };
  try {
    return await db.$transaction(async (tx) => {
      for (const [index, rule] of rules.entries()) {
        if (rule.outcome.kind !== "group") continue;
        const group = await tx.approverGroup.findUnique({
          where: { slug: rule.outcome.group },
          select: { id: true },
        });
        if (!group) return { outcome: "unknown_group" as const, index, slug: rule.outcome.group };
      }
      const removed = await tx.toolRule.deleteMany({ where: { toolName } });
      if (removed.count !== from.length) return { outcome: "stale" as const };
      if (rules.length > 0)
        await tx.toolRule.createMany({
          data: rules.map((rule, position) => ({
            toolName,
            position,
            condition: rule.condition,
            ...columnsOf(rule.outcome),
            updatedById: actorId,
          })),
        });
      const to = rules.map(draftOf);
      await recordAuditEntry({
        tx,
        actorId,
        action: "tool.rules_changed",
        targetType: "tool",
        targetId: toolName,
        detail: { from, to },
      });
      return { outcome: "changed" as const, from, to };
    }, engineTransaction);
  } catch (error) {
    // Another admin's save of the same tool inserted the same positions first.
    if (isUniqueViolation(error)) return { outcome: "stale" };
    throw error;
  }
}

/** A rule that could not be judged refused a call: the audit keeps why. */
export async function recordRuleFailure({
  db,
  actorId,
  toolName,
  detail,
}: {
  db: DbClient;
  actorId: string | null;
  toolName: string;
  detail: { position: number; condition: string; error: string; runId?: string; threadId?: string };
}): Promise<void> {
  await db.$transaction(async (tx) => {
    await recordAuditEntry({
      tx,
      actorId,
      action: "tool.rule_failed",
      targetType: "tool",
      targetId: toolName,
      detail,
    });
  }, engineTransaction);
}
