import "server-only";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";

/**
 * Ends every session of a user: a token remembers the version it was issued under, and the
 * session check refuses it once the row holds a newer one. One increment, so two sign-outs at
 * once both take effect. Returns false when the user does not exist.
 */
export async function raiseSessionVersionByUserId({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<boolean> {
  const written = await db.user.updateMany({
    where: { id: userId },
    data: { sessionVersion: { increment: 1 } },
  });
  return written.count === 1;
}

/** An admin ends all of another user's sessions; the audit entry says who did it. */
export async function revokeUserSessionsById({
  db,
  userId,
  actorId,
}: {
  db: DbClient;
  userId: string;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const written = await tx.user.updateMany({
      where: { id: userId },
      data: { sessionVersion: { increment: 1 } },
    });
    if (written.count !== 1) return false;
    await recordAuditEntry({
      tx,
      actorId,
      action: "user.sessions_revoked",
      targetType: "user",
      targetId: userId,
    });
    return true;
  }, engineTransaction);
}
