import { getApproverGroupBySlug } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import { listAddedAddressees } from "@/lib/db/escalation-steps";

// Whom a request's escalation ladder has added (ADR 0093): a group with its own quorum, or a
// person. They may answer (or vote on) the request as its first addressees may; the asker never
// counts (four eyes). Most requests have no ladder, and then this reads one indexed empty list.

/** Whether a fired "add" step addressed this person to the request. */
export async function isAddedAddressee(
  db: DbClient,
  request: { id: string; ownerId: string },
  userId: string,
): Promise<boolean> {
  if (userId === request.ownerId) return false;
  for (const added of await listAddedAddressees({ db, requestRowId: request.id })) {
    if ("userId" in added) {
      if (added.userId === userId) return true;
    } else if ((await getApproverGroupBySlug({ db, slug: added.group }))?.memberIds.includes(userId))
      return true;
  }
  return false;
}

/**
 * The approvals that settle a group's request by an added addressee's quorum: `required` of an
 * added group's members, or the approval of an added person; null when none is met yet.
 */
export async function ladderQuorum<T extends { voterId: string }>(
  db: DbClient,
  request: { id: string },
  counted: readonly T[],
): Promise<T[] | null> {
  for (const added of await listAddedAddressees({ db, requestRowId: request.id })) {
    if ("userId" in added) {
      const approval = counted.find((vote) => vote.voterId === added.userId);
      if (approval) return [approval];
      continue;
    }
    const members = new Set((await getApproverGroupBySlug({ db, slug: added.group }))?.memberIds ?? []);
    const theirs = counted.filter((vote) => members.has(vote.voterId));
    if (theirs.length >= added.required) return theirs.slice(0, added.required);
  }
  return null;
}
