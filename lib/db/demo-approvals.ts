import "server-only";
import type { ToolRuleDraft } from "@/lib/domain/tool-rules";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { normaliseEmail } from "./users";

/**
 * The demo's approver group and a tool's demo rules, for the seed: the group is created if it is
 * missing and gets the listed people back; the rules are written only while the tool has none,
 * so an admin's own rules survive a second seed. Changes are audited with no actor (the seed).
 */
export async function ensureDemoApprovals({
  db,
  group,
  rules,
}: {
  db: DbClient;
  group: { slug: string; name: string; memberEmails: string[] };
  rules: { toolName: string; rules: ToolRuleDraft[] };
}): Promise<void> {
  await db.$transaction(async (tx) => {
    let row = await tx.approverGroup.findUnique({ where: { slug: group.slug }, select: { id: true } });
    if (!row) {
      row = await tx.approverGroup.create({
        data: { slug: group.slug, name: group.name },
        select: { id: true },
      });
      await recordAuditEntry({
        tx,
        actorId: null,
        action: "approver_group.created",
        targetType: "approver_group",
        targetId: row.id,
        detail: { slug: group.slug, name: group.name },
      });
    }
    for (const email of group.memberEmails) {
      const user = await tx.user.findUnique({
        where: { email: normaliseEmail(email) },
        select: { id: true },
      });
      if (!user) continue;
      const key = { groupId_userId: { groupId: row.id, userId: user.id } };
      if (await tx.approverGroupMember.findUnique({ where: key, select: { userId: true } })) continue;
      await tx.approverGroupMember.create({ data: { groupId: row.id, userId: user.id } });
      await recordAuditEntry({
        tx,
        actorId: null,
        action: "approver_group.member_added",
        targetType: "approver_group",
        targetId: row.id,
        detail: { slug: group.slug, userId: user.id, email },
      });
    }
    if ((await tx.toolRule.count({ where: { toolName: rules.toolName } })) > 0) return;
    await tx.toolRule.createMany({
      data: rules.rules.map((rule, position) => ({
        toolName: rules.toolName,
        position,
        condition: rule.condition,
        outcome: rule.outcome.kind,
        groupSlug: rule.outcome.kind === "group" ? rule.outcome.group : null,
        required: rule.outcome.kind === "group" ? rule.outcome.required : 1,
      })),
    });
    await recordAuditEntry({
      tx,
      actorId: null,
      action: "tool.rules_changed",
      targetType: "tool",
      targetId: rules.toolName,
      detail: { from: [], to: rules.rules },
    });
  });
}
