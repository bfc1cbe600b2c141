import "server-only";
import { type EmailMode, parseEmailMode } from "@/lib/domain/notifications";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import { hasRole, parseRole } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";
import { listAddedAddressees } from "./escalation-steps";
import { listCoveringDelegates } from "./mail-delegates";

// Whom the mail worker tells of a request a notice announces (mail-notices.ts), and how each
// wants to hear of it (their email setting): read when the notice is fanned out, so it goes to
// the addressees as they are then.

/**
 * Who may answer a request, with how each wants to hear of it: its owner, every reviewer, or the
 * members of its approver group but the asker.
 * `askerId` is the request's owner, whose hourly limit of mail at once it counts against.
 */
export async function listMailRecipientsByRequest({
  db,
  requestRowId,
  stepId = "",
}: {
  db: DbClient;
  requestRowId: string;
  /** The escalation step the notice is for: an escalation mails only whom it added. */
  stepId?: string;
}): Promise<{ askerId: string | null; recipients: { userId: string; mode: EmailMode }[] }> {
  const request = await db.request.findUnique({
    where: { id: requestRowId },
    select: { ownerId: true, audience: true, audienceGroup: true, status: true, kind: true },
  });
  if (request?.status !== "open") return { askerId: null, recipients: [] };
  const added = await listAddedAddressees({ db, requestRowId });
  const escalation = stepId === "" ? undefined : added.find((entry) => entry.stepId === stepId);
  const original = escalation
    ? []
    : await db.user.findMany({
        where:
          request.audience === "owner"
            ? { id: request.ownerId, email: { not: null } }
            : request.audience === "group"
              ? {
                  id: { not: request.ownerId },
                  email: { not: null },
                  approverGroups: { some: { group: { slug: request.audienceGroup ?? "" } } },
                }
              : { role: { in: ["reviewer", "admin"] }, email: { not: null } },
        select: { id: true, role: true },
      });
  // An approval to every reviewer names nobody, so it passes to no one's delegate; a sign-in is
  // never delegated (ADR 0098).
  const named =
    request.audience === "reviewers" ||
    (request.audience === "owner" && requestKindSpec(request.kind).form === "sign-in")
      ? []
      : original;
  const widened =
    added.length === 0
      ? []
      : await db.user.findMany({
          where: {
            id: { not: request.ownerId },
            email: { not: null },
            OR: (escalation ? [escalation] : added).map((entry) =>
              "group" in entry
                ? { approverGroups: { some: { group: { slug: entry.group } } } }
                : { id: entry.userId },
            ),
          },
          select: { id: true, role: true },
        });
  // A group's request goes to its members who may vote: everyone in it but the asker; those a
  // ladder added (ADR 0093) never include the asker either; and the delegates of those named on
  // it who are away (ADR 0098), once each.
  const delegates = await listCoveringDelegates({
    db,
    principals: [...named, ...widened],
    askerId: request.ownerId,
  });
  const ids = new Set<string>();
  const audience = [
    ...original.filter(
      (user) =>
        request.audience === "owner" ||
        request.audience === "group" ||
        hasRole(parseRole(user.role), "reviewer"),
    ),
    ...widened,
    ...delegates,
  ].filter((user) => {
    if (ids.has(user.id)) return false;
    ids.add(user.id);
    return true;
  });
  const settings = await db.notificationSetting.findMany({
    where: { userId: { in: audience.map((user) => user.id) } },
  });
  const modes = new Map(settings.map((row) => [row.userId, parseEmailMode(row.emailMode)]));
  return {
    askerId: request.ownerId,
    recipients: audience.map((user) => ({
      userId: user.id,
      mode: modes.get(user.id) ?? ("instant" as EmailMode),
    })),
  };
}
