// Cover while away (ADR 0098): "away from … until …, send what is addressed to me to <person>".
// While an absence runs, what is addressed to the absent person also goes to their delegate,
// whose answer counts as theirs. The rules here are pure: storage hands them the absences that
// could collide, and the engine asks `coversRequest` which requests a delegate may act on.

import type { Audience } from "./events";
import { requestKindSpec } from "./request-kinds";
import type { Role } from "./roles";
import { utcWords } from "./utc-words";

/** A field at fault, addressed by a JSON pointer into the form (`/from`, `/until`, `/delegate`). */
export interface AbsenceIssue {
  path: string;
  message: string;
}

/** One stored absence, as the rules read it. */
export interface AbsencePeriod {
  id?: string;
  userId: string;
  delegateId: string;
  startsAt: Date;
  endsAt: Date;
}

/** An absence as people see it: whose, who covers, and when. */
export interface AbsenceView {
  id: string;
  userId: string;
  userEmail: string;
  delegateId: string;
  delegateEmail: string;
  delegateName: string | null;
  startsAt: string;
  endsAt: string;
  createdById: string;
}

/** The longest absence one entry may span; a longer one is set as several. */
export const ABSENCE_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

/** Whether the period [startsAt, endsAt) contains `now`. */
export function isRunning(period: Pick<AbsencePeriod, "startsAt" | "endsAt">, now: Date): boolean {
  return period.startsAt <= now && now < period.endsAt;
}

function overlaps(
  a: Pick<AbsencePeriod, "startsAt" | "endsAt">,
  b: Pick<AbsencePeriod, "startsAt" | "endsAt">,
) {
  return a.startsAt < b.endsAt && b.startsAt < a.endsAt;
}

/**
 * Whether a person of `delegateRole` may see what is addressed to one of `personRole`. Approvals
 * are reviewers' work: a reviewer's or an admin's cover must be one too, or the delegate could
 * not see the approvals they would be sent. A user's questions may go to anyone.
 */
export function mayCover(personRole: Role, delegateRole: Role): boolean {
  return personRole === "user" || delegateRole !== "user";
}

/**
 * A loop the new absence would close: someone the delegate sends their requests to (directly or
 * further on) during an overlapping time sends them back to the person. Each hop narrows the
 * window to the time all the absences on the way share.
 */
function closesLoop(next: AbsencePeriod, existing: readonly AbsencePeriod[]): boolean {
  const seen = new Set<string>();
  const walk = (from: string, window: { startsAt: Date; endsAt: Date }): boolean => {
    if (from === next.userId) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    return existing.some((edge) => {
      if (edge.userId !== from || !overlaps(edge, window)) return false;
      const narrowed = {
        startsAt: new Date(Math.max(edge.startsAt.getTime(), window.startsAt.getTime())),
        endsAt: new Date(Math.min(edge.endsAt.getTime(), window.endsAt.getTime())),
      };
      return walk(edge.delegateId, narrowed);
    });
  };
  return walk(next.delegateId, next);
}

/**
 * Every reason the absence cannot be set, each on its field (`/from`, `/until`, `/delegate`);
 * empty when it can. `existing`: the stored absences that end after it starts (the person's own
 * and those of everyone a loop could pass through); `delegateEmail` names the delegate in words.
 */
export function absenceIssues({
  next,
  now,
  existing,
  personRole,
  delegate,
}: {
  next: AbsencePeriod;
  now: Date;
  existing: readonly AbsencePeriod[];
  personRole: Role;
  delegate: { email: string; role: Role } | null;
}): AbsenceIssue[] {
  const issues: AbsenceIssue[] = [];
  if (Number.isNaN(next.startsAt.getTime()))
    issues.push({ path: "/from", message: "must be a date and time" });
  if (Number.isNaN(next.endsAt.getTime()))
    issues.push({ path: "/until", message: "must be a date and time" });
  if (issues.length > 0) return issues;
  if (next.endsAt <= next.startsAt) {
    issues.push({ path: "/until", message: "must be after the start" });
  } else if (next.endsAt <= now) {
    issues.push({ path: "/until", message: "must be in the future" });
  } else if (next.endsAt.getTime() - next.startsAt.getTime() > ABSENCE_MAX_DAYS * DAY_MS) {
    issues.push({ path: "/until", message: `may be at most ${ABSENCE_MAX_DAYS} days after the start` });
  }
  if (!delegate) {
    issues.push({ path: "/delegate", message: "is nobody with an account here" });
  } else if (next.delegateId === next.userId) {
    issues.push({ path: "/delegate", message: "cannot be the person who is away" });
  } else if (!mayCover(personRole, delegate.role)) {
    issues.push({
      path: "/delegate",
      message: `${delegate.email} is not a reviewer, so could not see the approvals addressed to this person`,
    });
  }
  if (issues.length > 0) return issues;
  const clash = existing.find(
    (other) => other.userId === next.userId && other.id !== next.id && overlaps(other, next),
  );
  if (clash) {
    issues.push({
      path: "/from",
      message: `overlaps an absence already set (${utcWords(clash.startsAt)} – ${utcWords(clash.endsAt)} UTC)`,
    });
  } else if (closesLoop(next, existing)) {
    issues.push({
      path: "/delegate",
      message: `${delegate?.email} sends what is addressed to them back to this person at that time (a loop)`,
    });
  }
  return issues;
}

/**
 * Whether a delegate covering for `principalId` may act on this request in their place: what is
 * addressed to the principal by name (their own chats' questions and forms, a group's vote of
 * theirs, an approval a ladder added them to). Never a sign-in: it would connect the delegate's
 * account in the principal's name. Whether the principal may answer at all is the caller's
 * question, asked of the principal by name: membership of the request's group, or a ladder step
 * that added them. Approvals addressed to every reviewer name nobody, so they pass to no one.
 */
export function coversRequest(
  request: { audience: Audience; kind: string; ownerId: string },
  principalId: string,
): boolean {
  if (requestKindSpec(request.kind).form === "sign-in") return false;
  if (request.audience === "owner") return request.ownerId === principalId;
  return request.ownerId !== principalId;
}
