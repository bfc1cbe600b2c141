import { z } from "zod";
import { getApproverGroupBySlug } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { getUserByEmail } from "@/lib/db/users";
import {
  addsPerson,
  checkLadder,
  ESCALATION_REASON_MAX_LENGTH,
  ESCALATION_STEPS_MAX,
  type EscalationStep,
} from "@/lib/domain/escalation";
import { GROUP_SLUG_PATTERN, RULE_REQUIRED_MAX } from "@/lib/domain/tool-rules";
import type { FieldIssue } from "@/lib/errors";

// An escalation ladder as the rule editor and the HTTP API take it (ADR 0093): one schema, so
// the OpenAPI document describes what the editor saves, and one check of its times and names.

const addAction = z
  .object({
    add: z
      .string()
      .trim()
      .min(1, "Name a group or a person's email.")
      .max(320)
      .describe("A group's slug, or a person's email"),
    required: z
      .number()
      .int("A whole number.")
      .min(1, "At least 1.")
      .max(RULE_REQUIRED_MAX, `At most ${RULE_REQUIRED_MAX}.`)
      .optional()
      .describe("For a group: how many of its members must approve (1 by default)"),
  })
  .strict();

const declineAction = z
  .object({
    decline: z
      .string()
      .max(ESCALATION_REASON_MAX_LENGTH, `At most ${ESCALATION_REASON_MAX_LENGTH} characters.`)
      .describe("The reason the request is declined with"),
  })
  .strict();

export const escalationStepSchema = z
  .object({
    after: z
      .string()
      .max(12)
      .describe('How long after the request was asked, such as "30s", "15m", "2h" or "1d"'),
    action: z.union([z.literal("remind"), z.literal("expire"), addAction, declineAction]),
  })
  .strict();

export const escalationLadderSchema = z
  .array(escalationStepSchema)
  .max(ESCALATION_STEPS_MAX, `At most ${ESCALATION_STEPS_MAX} steps.`);

/**
 * Every refusal of a ladder, each naming its field under `base`: durations that are not more
 * than zero, out of order or past the expiry, and groups or people that do not exist.
 */
export async function ladderIssues(
  db: DbClient,
  steps: readonly EscalationStep[],
  { expiresInMs, base }: { expiresInMs: number | undefined; base: string },
): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = checkLadder(steps, { expiresInMs, base });
  for (const [index, { action }] of steps.entries()) {
    if (typeof action !== "object" || !("add" in action)) continue;
    const path = `${base}/${index}/action/add`;
    if (addsPerson(action)) {
      if (!(await getUserByEmail({ db, email: action.add })))
        issues.push({ path, message: "Nobody has an account with this email." });
      else if (action.required !== undefined && action.required > 1)
        issues.push({ path: `${base}/${index}/action/required`, message: "A person gives one approval." });
      continue;
    }
    const group = GROUP_SLUG_PATTERN.test(action.add)
      ? await getApproverGroupBySlug({ db, slug: action.add })
      : undefined;
    if (!group) issues.push({ path, message: "There is no such group." });
    else if (group.memberIds.length < (action.required ?? 1))
      issues.push({
        path: `${base}/${index}/action/required`,
        message: `The group has ${group.memberIds.length} member(s); it cannot give ${action.required} approvals.`,
      });
  }
  return issues;
}
