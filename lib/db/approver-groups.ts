import "server-only";
import type { DbClient } from "./db-types";

/** A group as the rest of the app reads it: its slug, name and members' user ids. */
export type ApproverGroupRecord = {
  id: string;
  slug: string;
  name: string;
  memberIds: string[];
};

export async function getApproverGroupBySlug({
  db,
  slug,
}: {
  db: DbClient;
  slug: string;
}): Promise<ApproverGroupRecord | undefined> {
  const row = await db.approverGroup.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, members: { select: { userId: true } } },
  });
  if (!row) return undefined;
  return { id: row.id, slug: row.slug, name: row.name, memberIds: row.members.map((m) => m.userId) };
}

/** The slugs of every group a person belongs to, sorted, for CEL's `user.groups`. */
export async function listGroupSlugsForUser({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<string[]> {
  const rows = await db.approverGroupMember.findMany({
    where: { userId },
    select: { group: { select: { slug: true } } },
  });
  return rows.map((r) => r.group.slug).sort();
}

/** Whether a person is (still) a member of the group named by its slug. */
export async function isApproverGroupMember({
  db,
  slug,
  userId,
}: {
  db: DbClient;
  slug: string;
  userId: string;
}): Promise<boolean> {
  const row = await db.approverGroupMember.findFirst({
    where: { userId, group: { slug } },
    select: { userId: true },
  });
  return row !== null;
}
