import "server-only";
import type { ApproverGroupRow } from "@/lib/domain/approver-groups";
import { describeRule } from "@/lib/domain/tool-rules";
import { type AuditAction, recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";
import { groupUseSelect, groupUseWhere, listRulesUsingGroup, usesGroup } from "./tool-rules";

// An admin's changes to approver groups. Each one writes its audit entry (who, what; the row's
// time is when) in the same transaction as the change, so the log never disagrees with the groups.

export async function listApproverGroups({ db }: { db: DbClient }): Promise<ApproverGroupRow[]> {
  const [groups, rules] = await Promise.all([
    db.approverGroup.findMany({
      orderBy: { slug: "asc" },
      select: {
        id: true,
        slug: true,
        name: true,
        members: {
          orderBy: { addedAt: "asc" },
          select: { userId: true, addedAt: true, user: { select: { email: true, name: true } } },
        },
      },
    }),
    db.toolRule.findMany({
      where: groupUseWhere,
      select: groupUseSelect,
      orderBy: [{ toolName: "asc" }, { position: "asc" }],
    }),
  ]);
  return groups.map((group) => ({
    id: group.id,
    slug: group.slug,
    name: group.name,
    members: group.members.map((member) => ({
      userId: member.userId,
      email: member.user.email,
      name: member.user.name,
      addedAt: member.addedAt.toISOString(),
    })),
    usedBy: rules.filter((rule) => usesGroup(rule, group.slug)).map(describeRule),
  }));
}

async function audit(
  tx: DbTx,
  actorId: string,
  action: AuditAction,
  groupId: string,
  detail: Record<string, unknown>,
) {
  await recordAuditEntry({ tx, actorId, action, targetType: "approver_group", targetId: groupId, detail });
}

export type GroupCreation = { outcome: "created"; id: string } | { outcome: "slug_taken" };

export async function createApproverGroup({
  db,
  slug,
  name,
  actorId,
}: {
  db: DbClient;
  slug: string;
  name: string;
  actorId: string;
}): Promise<GroupCreation> {
  try {
    return await db.$transaction(async (tx) => {
      const group = await tx.approverGroup.create({ data: { slug, name }, select: { id: true } });
      await audit(tx, actorId, "approver_group.created", group.id, { slug, name });
      return { outcome: "created" as const, id: group.id };
    }, engineTransaction);
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: "slug_taken" };
    throw error;
  }
}

export type GroupChange = { outcome: "changed" } | { outcome: "unchanged" } | { outcome: "not_found" };

/** Renames a group; its slug stays, since rules and requests name it by that. */
export async function renameApproverGroup({
  db,
  id,
  name,
  actorId,
}: {
  db: DbClient;
  id: string;
  name: string;
  actorId: string;
}): Promise<GroupChange> {
  return db.$transaction(async (tx) => {
    const group = await tx.approverGroup.findUnique({ where: { id }, select: { slug: true, name: true } });
    if (!group) return { outcome: "not_found" as const };
    if (group.name === name) return { outcome: "unchanged" as const };
    const written = await tx.approverGroup.updateMany({ where: { id, name: group.name }, data: { name } });
    if (written.count !== 1) return { outcome: "not_found" as const };
    await audit(tx, actorId, "approver_group.renamed", id, { slug: group.slug, from: group.name, to: name });
    return { outcome: "changed" as const };
  }, engineTransaction);
}

export type GroupDeletion =
  | { outcome: "deleted" }
  | { outcome: "not_found" }
  /** Rules still address it, or add it in an escalation step; they are named so the admin knows what to change first. */
  | { outcome: "in_use"; rules: string[] };

export async function deleteApproverGroup({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<GroupDeletion> {
  return db.$transaction(async (tx) => {
    const group = await tx.approverGroup.findUnique({
      where: { id },
      select: { slug: true, name: true, members: { select: { userId: true } } },
    });
    if (!group) return { outcome: "not_found" as const };
    const rules = await listRulesUsingGroup({ db: tx, slug: group.slug });
    if (rules.length > 0) return { outcome: "in_use" as const, rules: rules.map(describeRule) };
    await tx.approverGroup.delete({ where: { id } });
    await audit(tx, actorId, "approver_group.deleted", id, {
      slug: group.slug,
      name: group.name,
      members: group.members.map((member) => member.userId),
    });
    return { outcome: "deleted" as const };
  }, engineTransaction);
}

export type MembershipChange =
  | { outcome: "changed" }
  | { outcome: "unchanged" }
  | { outcome: "group_not_found" }
  | { outcome: "user_not_found" };

export async function addApproverGroupMember({
  db,
  groupId,
  userId,
  actorId,
}: {
  db: DbClient;
  groupId: string;
  userId: string;
  actorId: string;
}): Promise<MembershipChange> {
  try {
    return await db.$transaction(async (tx) => {
      const group = await tx.approverGroup.findUnique({ where: { id: groupId }, select: { slug: true } });
      if (!group) return { outcome: "group_not_found" as const };
      const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
      if (!user) return { outcome: "user_not_found" as const };
      const existing = await tx.approverGroupMember.findUnique({
        where: { groupId_userId: { groupId, userId } },
        select: { userId: true },
      });
      if (existing) return { outcome: "unchanged" as const };
      await tx.approverGroupMember.create({ data: { groupId, userId, addedById: actorId } });
      await audit(tx, actorId, "approver_group.member_added", groupId, {
        slug: group.slug,
        userId,
        email: user.email,
      });
      return { outcome: "changed" as const };
    }, engineTransaction);
  } catch (error) {
    // Another admin added the same person at the same moment.
    if (isUniqueViolation(error)) return { outcome: "unchanged" };
    throw error;
  }
}

export async function removeApproverGroupMember({
  db,
  groupId,
  userId,
  actorId,
}: {
  db: DbClient;
  groupId: string;
  userId: string;
  actorId: string;
}): Promise<MembershipChange> {
  return db.$transaction(async (tx) => {
    const group = await tx.approverGroup.findUnique({ where: { id: groupId }, select: { slug: true } });
    if (!group) return { outcome: "group_not_found" as const };
    const removed = await tx.approverGroupMember.deleteMany({ where: { groupId, userId } });
    if (removed.count === 0) return { outcome: "unchanged" as const };
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    await audit(tx, actorId, "approver_group.member_removed", groupId, {
      slug: group.slug,
      userId,
      email: user?.email ?? null,
    });
    return { outcome: "changed" as const };
  }, engineTransaction);
}
