import "server-only";
import { parseRole, type Role } from "@/lib/domain/roles";
import { recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { lockUntilTransactionEnds } from "./sql/advisory-lock";
import { engineTransaction } from "./sql/transaction-options";

export type RoleChange =
  | { outcome: "changed"; from: Role; to: Role }
  | { outcome: "unchanged" }
  | { outcome: "not_found" }
  /** Someone else changed this user's role between our read and our write. */
  | { outcome: "stale" }
  /** The change would have left nobody with the admin role; nothing was written. */
  | { outcome: "last_admin" };

export async function countAdmins({ db }: { db: DbClient | DbTx }): Promise<number> {
  return db.user.count({ where: { role: "admin" } });
}

/** Thrown inside the transaction only to roll it back. */
class LastAdminRollback extends Error {}

/**
 * Sets a user's role and records who did it, in one transaction. The transaction never ends
 * with no admin left: it demotes, then counts the admins and rolls back if none remain.
 *
 * That check is only sound if concurrent role changes see each other. Two admins demoting each
 * other at once each still see the other as an admin from their own snapshot, so without
 * ordering both would commit. SQLite orders them by itself: the first statement below is a
 * write, which holds the database's single write lock until commit. PostgreSQL lets writers of
 * different rows proceed side by side, so every role change first takes one transaction-scoped
 * advisory lock; the count that follows (read committed) then sees every change committed
 * before it. No other code writes roles apart from the demo seed, which only restores accounts.
 */
export async function updateUserRoleById({
  db,
  userId,
  role,
  actorId,
}: {
  db: DbClient;
  userId: string;
  role: Role;
  actorId: string;
}): Promise<RoleChange> {
  const current = await db.user.findUnique({ where: { id: userId }, select: { role: true } });
  if (!current) return { outcome: "not_found" };
  if (current.role === role) return { outcome: "unchanged" };
  try {
    return await db.$transaction(async (tx) => {
      await lockUntilTransactionEnds(tx, "user-roles");
      // Conditional on the role we read, so the audit entry's "from" is the role we replaced.
      const written = await tx.user.updateMany({ where: { id: userId, role: current.role }, data: { role } });
      if (written.count !== 1) return { outcome: "stale" as const };
      if (current.role === "admin" && (await countAdmins({ db: tx })) === 0) throw new LastAdminRollback();
      const from = parseRole(current.role);
      await recordAuditEntry({
        tx,
        actorId,
        action: "user.role_changed",
        targetType: "user",
        targetId: userId,
        detail: { from, to: role },
      });
      return { outcome: "changed" as const, from, to: role };
    }, engineTransaction);
  } catch (error) {
    if (error instanceof LastAdminRollback) return { outcome: "last_admin" };
    throw error;
  }
}
