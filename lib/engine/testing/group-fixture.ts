import { randomUUID } from "node:crypto";
import type { DbClient } from "@/lib/db/db-types";
import type { Actor } from "@/lib/domain/roles";

/** A person with an email (votes are shown by email). */
export async function makePerson(db: DbClient, name: string, role: Actor["role"] = "user"): Promise<Actor> {
  const user = await db.user.create({ data: { role, name, email: `${name}-${randomUUID()}@example.test` } });
  return { id: user.id, role };
}

/** An approver group of these people, under a fresh slug. */
export async function makeGroup(db: DbClient, members: Actor[], prefix = "finance"): Promise<string> {
  const slug = `${prefix}-${randomUUID().slice(0, 8)}`;
  await db.approverGroup.create({
    data: {
      slug,
      name: prefix,
      members: { create: members.map((m) => ({ userId: m.id })) },
    },
  });
  return slug;
}

/** Addresses a stored request to a group, as the tool gate does for a rule "M of the group". */
export async function addressToGroup(db: DbClient, requestRowId: string, slug: string, required: number) {
  await db.request.update({
    where: { id: requestRowId },
    data: { audience: "group", audienceGroup: slug, required },
  });
}

export async function votesOf(db: DbClient, requestRowId: string) {
  return db.requestVote.findMany({
    where: { requestRowId },
    orderBy: { createdAt: "asc" },
    select: { voterId: true, ok: true, status: true, note: true },
  });
}
