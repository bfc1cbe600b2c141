import { mayCover } from "@/lib/domain/absence";
import type { Audience } from "@/lib/domain/events";
import type { Actor } from "@/lib/domain/roles";
import { listCoveredPeople } from "./absences";
import { listGroupSlugsForUser } from "./approver-groups";
import type { DbClient } from "./db-types";

type Row = { id: string; ownerId: string; audience: string; audienceGroup: string | null };

/**
 * Whom the viewer would act for on each of these inbox rows: the first person they cover for now
 * whom the row names, as the engine picks (lib/engine/covering.ts). Rows the viewer acts on in
 * their own right (their own question, the reviewers' approvals for a reviewer, their group's
 * vote, a ladder's addition of them) get none. Reads no more for a viewer who covers nobody.
 */
export async function listCoveringFor({
  db,
  viewer,
  rows,
  now = new Date(),
}: {
  db: DbClient;
  viewer: Actor;
  rows: readonly Row[];
  now?: Date;
}): Promise<Map<string, { userId: string; email: string }>> {
  const out = new Map<string, { userId: string; email: string }>();
  if (rows.length === 0) return out;
  const covered = (await listCoveredPeople({ db, delegateId: viewer.id, now })).filter((person) =>
    mayCover(person.role, viewer.role),
  );
  if (covered.length === 0) return out;
  const named = [viewer.id, ...covered.map((person) => person.userId)];
  const slugs = new Map(
    await Promise.all(
      named.map(async (id) => [id, await listGroupSlugsForUser({ db, userId: id })] as const),
    ),
  );
  const steps = await db.requestEscalationStep.findMany({
    where: { requestRowId: { in: rows.map((row) => row.id) }, kind: "add", firedAt: { not: null } },
    select: { requestRowId: true, addedEmail: true, addedGroup: true },
  });
  // A step adds a person by email: whoever has the account with it now (escalation-steps.ts).
  const emails = steps.flatMap((step) => (step.addedEmail ? [step.addedEmail] : []));
  const accounts =
    emails.length === 0
      ? []
      : await db.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } });
  const accountOf = new Map(accounts.map((account) => [account.email, account.id]));
  const addedTo = (row: Row, userId: string) =>
    steps.some(
      (step) =>
        step.requestRowId === row.id &&
        ((step.addedEmail !== null && accountOf.get(step.addedEmail) === userId) ||
          (step.addedGroup !== null && slugs.get(userId)?.includes(step.addedGroup))),
    );
  const names = (row: Row, userId: string) => {
    if ((row.audience as Audience) === "owner") return row.ownerId === userId;
    if (row.ownerId === userId) return false;
    const member =
      row.audience === "group" &&
      row.audienceGroup !== null &&
      slugs.get(userId)?.includes(row.audienceGroup);
    return member === true || addedTo(row, userId);
  };
  const ownRight = (row: Row) => {
    if (row.audience === "owner") return row.ownerId === viewer.id;
    if (row.ownerId === viewer.id) return true;
    if (row.audience === "reviewers" && viewer.role !== "user") return true;
    return names(row, viewer.id);
  };
  for (const row of rows) {
    if (ownRight(row)) continue;
    const person = covered.find((p) => names(row, p.userId));
    if (person) out.set(row.id, { userId: person.userId, email: person.email });
  }
  return out;
}
