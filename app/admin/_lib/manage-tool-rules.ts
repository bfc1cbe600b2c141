import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { escalationLadderSchema, ladderIssues } from "@/app/_lib/escalation-ladder";
import { APPROVAL_TTL_MS } from "@/lib/agent/create-agent-toolkit";
import type { McpPool } from "@/lib/agent/mcp/mcp-pool";
import { checkCondition, judgeRules } from "@/lib/agent/policy/rule-conditions";
import { clientToolFacts } from "@/lib/agent/policy/rule-verdict";
import { agentToolFacts } from "@/lib/agent/tool-rule-catalog";
import { getApproverGroupBySlug, listGroupSlugsForUser } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { replaceToolRules } from "@/lib/db/tool-rules";
import { getUserByEmail } from "@/lib/db/users";
import {
  CLIENT_TOOL_NAME_PATTERN,
  GROUP_SLUG_PATTERN,
  RULE_CONDITION_MAX_LENGTH,
  RULE_REQUIRED_MAX,
  RULES_PER_TOOL_MAX,
  type RuleTrial,
  type ToolRuleDraft,
} from "@/lib/domain/tool-rules";
import { AppError, type FieldIssue } from "@/lib/errors";

// An admin edits a tool's rules as one ordered list and saves it whole, or tries the list as it
// stands on pasted arguments (ADR 0074). Conditions are checked here, with their position. The
// tool is one of the app's own, or a tool an MCP client names in its permission prompts (`Bash`).

type Deps = { db: DbClient; mcp: Pick<McpPool, "tools"> };

const outcome = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("free") }).strict(),
  z.object({ kind: z.literal("owner") }).strict(),
  z.object({ kind: z.literal("reviewers"), escalation: escalationLadderSchema.optional() }).strict(),
  z
    .object({
      kind: z.literal("group"),
      group: z.string().regex(GROUP_SLUG_PATTERN, "Choose a group."),
      required: z
        .number()
        .int("A whole number.")
        .min(1, "At least 1.")
        .max(RULE_REQUIRED_MAX, `At most ${RULE_REQUIRED_MAX}.`),
      escalation: escalationLadderSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal("blocked") }).strict(),
]);

// Twice the limit passes the transport check, so an over-long condition is refused by
// `checkCondition`, which says where the limit falls.
const draft = z.object({ condition: z.string().max(RULE_CONDITION_MAX_LENGTH * 2), outcome }).strict();
const drafts = z.array(draft).max(RULES_PER_TOOL_MAX, `At most ${RULES_PER_TOOL_MAX} rules per tool.`);
const toolName = z.string().min(1).max(200);

function conditionIssues(rules: readonly ToolRuleDraft[]): FieldIssue[] {
  return rules.flatMap((rule, index) => {
    const check = checkCondition(rule.condition);
    if (check.ok) return [];
    const { line, column } = check.position;
    return [
      { path: `/rules/${index}/condition`, message: `Line ${line}, column ${column}: ${check.message}` },
    ];
  });
}

async function groupIssues(db: DbClient, rules: readonly ToolRuleDraft[]): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const [index, rule] of rules.entries()) {
    if (rule.outcome.kind !== "group") continue;
    const group = await getApproverGroupBySlug({ db, slug: rule.outcome.group });
    if (!group) issues.push({ path: `/rules/${index}/outcome/group`, message: "There is no such group." });
    else if (group.memberIds.length < rule.outcome.required)
      issues.push({
        path: `/rules/${index}/outcome/required`,
        message: `The group has ${group.memberIds.length} member(s); it cannot give ${rule.outcome.required} approvals.`,
      });
  }
  return issues;
}

/** A ladder's steps must fit in the approval's lifetime and name groups and people that exist. */
async function escalationIssues(db: DbClient, rules: readonly ToolRuleDraft[]): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const [index, rule] of rules.entries()) {
    const ladder = "escalation" in rule.outcome ? rule.outcome.escalation : undefined;
    if (!ladder || ladder.length === 0) continue;
    const base = `/rules/${index}/outcome/escalation`;
    issues.push(...(await ladderIssues(db, ladder, { expiresInMs: APPROVAL_TTL_MS, base })));
  }
  return issues;
}

function refuse(issues: FieldIssue[]): never {
  throw new AppError("bad_request:input", {
    message: issues.length === 1 ? issues[0]!.message : "Some rules are not valid; see each rule.",
    issues,
  });
}

/** The app's tool of that name, or else an MCP client's tool, whose name must be one a client may send. */
async function toolOf(deps: Deps, userId: string, name: string) {
  const facts = await agentToolFacts({ userId, mcpTools: await deps.mcp.tools(), toolName: name });
  if (facts) return facts;
  if (!CLIENT_TOOL_NAME_PATTERN.test(name))
    refuse([
      {
        path: "/toolName",
        message:
          'Not a tool of the app, nor a client\'s tool name (1 to 64 letters, digits, "_", "-", "." or ":").',
      },
    ]);
  return clientToolFacts(name);
}

export const saveToolRules = defineAction(
  { role: "admin", input: z.object({ toolName, expected: drafts, rules: drafts }).strict() },
  async ({ actor, input }, deps: Deps) => {
    await toolOf(deps, actor.id, input.toolName);
    const issues = [
      ...conditionIssues(input.rules),
      ...(await groupIssues(deps.db, input.rules)),
      ...(await escalationIssues(deps.db, input.rules)),
    ];
    if (issues.length > 0) refuse(issues);
    const change = await replaceToolRules({ db: deps.db, ...input, actorId: actor.id });
    if (change.outcome === "stale") throw new AppError("conflict:rules_changed");
    if (change.outcome === "unknown_group")
      refuse([{ path: `/rules/${change.index}/outcome/group`, message: "There is no such group." }]);
    return { toolName: input.toolName, changed: change.outcome === "changed" };
  },
);

const argsText = z.string().max(20_000, "At most 20,000 characters.");

export const tryToolRules = defineAction(
  {
    role: "admin",
    input: z
      .object({ toolName, rules: drafts, args: argsText, asEmail: z.string().trim().max(320).optional() })
      .strict(),
  },
  async ({ actor, input }, deps: Deps): Promise<RuleTrial> => {
    const tool = await toolOf(deps, actor.id, input.toolName);
    let args: unknown;
    try {
      args = JSON.parse(input.args);
    } catch (error) {
      refuse([
        { path: "/args", message: `Not JSON: ${error instanceof Error ? error.message : "cannot be read"}` },
      ]);
    }
    if (typeof args !== "object" || args === null || Array.isArray(args))
      refuse([
        { path: "/args", message: 'Paste the arguments as one JSON object, such as {"amount": 2500}.' },
      ]);
    const issues = conditionIssues(input.rules);
    if (issues.length > 0) refuse(issues);
    const email = input.asEmail || actor.email;
    const person = email ? await getUserByEmail({ db: deps.db, email }) : null;
    if (input.asEmail && !person)
      refuse([{ path: "/asEmail", message: "Nobody has an account with this email." }]);
    const user = {
      email: person?.email ?? "",
      role: person?.role ?? actor.role,
      groups: person ? await listGroupSlugsForUser({ db: deps.db, userId: person.id }) : [],
    };
    const rules = input.rules.map((rule, position) => ({ ...rule, position }));
    return judgeRules(rules, { args: args as Record<string, unknown>, tool, user });
  },
);
