import { listCoveredPeople } from "@/lib/db/absences";
import { isApproverGroupMember } from "@/lib/db/approver-groups";
import type { DbClient } from "@/lib/db/db-types";
import type { BareRequest } from "@/lib/db/requests";
import { coversRequest, mayCover } from "@/lib/domain/absence";
import type { Actor } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import { isAddedAddressee } from "./ladder-addressees";

// Whom an actor acts for on a request they may not answer in their own right (ADR 0098): the
// first person they cover for now to whom the request is addressed by name. Asked only after the
// direct check failed, so people who cover nobody pay nothing on the answer path.

export interface Principal {
  userId: string;
  email: string;
}

export type Cover =
  | { status: "covering"; principal: Principal }
  /** A principal is named on it, but four eyes forbid: the actor or the principal asked for it. */
  | { status: "four_eyes"; principal: Principal; asker: "actor" | "principal" }
  | { status: "none" };

type Addressed = Pick<BareRequest, "id" | "audience" | "audienceGroup" | "ownerId" | "request">;

/** Whether the request names this person: as its owner, a member of its group, or a ladder's addition. */
async function namesPerson(db: DbClient, request: Addressed, userId: string): Promise<boolean> {
  if (request.audience === "owner") return request.ownerId === userId;
  if (
    request.audience === "group" &&
    request.audienceGroup !== null &&
    (await isApproverGroupMember({ db, slug: request.audienceGroup, userId }))
  )
    return true;
  // Added by an escalation step (ADR 0093); an approval to "any reviewer" names nobody else.
  return isAddedAddressee(db, { id: request.id, ownerId: "" }, userId);
}

/** Whom `actor` may act for on `request` now, or why not. */
export async function coverOn(
  db: DbClient,
  request: Addressed,
  actor: Actor,
  now = new Date(),
): Promise<Cover> {
  const covered = await listCoveredPeople({ db, delegateId: actor.id, now });
  let refused: Cover = { status: "none" };
  for (const person of covered) {
    // Roles may have changed since the absence was set.
    if (!mayCover(person.role, actor.role)) continue;
    if (!(await namesPerson(db, request, person.userId))) continue;
    const principal = { userId: person.userId, email: person.email };
    if (!coversRequest({ ...request, kind: request.request.kind }, person.userId)) {
      // Sign-ins are never delegated; an approval the principal asked for is not theirs to give.
      if (request.audience !== "owner" && refused.status === "none")
        refused = { status: "four_eyes", principal, asker: "principal" };
      continue;
    }
    if (request.audience !== "owner" && request.ownerId === actor.id) {
      if (refused.status === "none") refused = { status: "four_eyes", principal, asker: "actor" };
      continue;
    }
    return { status: "covering", principal };
  }
  return refused;
}

/** The principal `actor` acts for, or the refusal a non-covering actor gets (`orElse`). */
export async function coveredPrincipal(
  db: DbClient,
  request: Addressed,
  actor: Actor,
  orElse: () => never,
): Promise<Principal> {
  const cover = await coverOn(db, request, actor);
  if (cover.status === "covering") return cover.principal;
  if (cover.status === "four_eyes") {
    const name = cover.principal.email;
    throw new AppError("forbidden:four_eyes", {
      message:
        cover.asker === "actor"
          ? `You asked for this request, so you cannot approve it, not even for ${name} (four eyes).`
          : `${name} asked for this request, so no one may approve it in their place (four eyes).`,
    });
  }
  return orElse();
}
