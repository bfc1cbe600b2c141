import "server-only";
import { mayCover } from "@/lib/domain/absence";
import { parseRole } from "@/lib/domain/roles";
import type { DbClient } from "./db-types";

/**
 * Who covers now for those of these people who are away (ADR 0098): a request addressed to them
 * by name is mailed to their delegate too. Never the asker (four eyes; and the asker knows), and
 * only a delegate who could see what is sent (`mayCover`, as roles may have changed since).
 */
export async function listCoveringDelegates({
  db,
  principals,
  askerId,
  now = new Date(),
}: {
  db: DbClient;
  principals: readonly { id: string; role: string }[];
  askerId: string;
  now?: Date;
}): Promise<{ id: string; role: string }[]> {
  if (principals.length === 0) return [];
  const roles = new Map(principals.map((p) => [p.id, parseRole(p.role)]));
  const rows = await db.absence.findMany({
    where: { userId: { in: [...roles.keys()] }, startsAt: { lte: now }, endsAt: { gt: now } },
    select: { userId: true, delegate: { select: { id: true, role: true, email: true } } },
  });
  return rows
    .filter(
      ({ userId, delegate }) =>
        delegate.email !== null &&
        delegate.id !== askerId &&
        mayCover(roles.get(userId) ?? "user", parseRole(delegate.role)),
    )
    .map(({ delegate }) => ({ id: delegate.id, role: delegate.role }));
}
