import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { updateUserRoleById } from "@/lib/db/user-roles";
import { ROLES, type Role } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";

export const changeUserRoleInput = z
  .object({
    userId: z.string().min(1).max(64),
    role: z.enum(ROLES),
  })
  .strict();

/**
 * An admin sets another account's role. Their own is refused, so nobody locks themselves out
 * by a slip of the select; the last admin cannot be demoted, decided in the same transaction
 * that writes the role (see updateUserRoleById). The new role applies on that user's next
 * request, since sessions read it from the user row every time.
 */
export const changeUserRole = defineAction(
  { role: "admin", input: changeUserRoleInput },
  async (
    { actor, input: { userId, role } },
    { db }: { db: DbClient },
  ): Promise<{ userId: string; role: Role; changed: boolean }> => {
    if (userId === actor.id) throw new AppError("forbidden:own_role");
    const change = await updateUserRoleById({ db, userId, role, actorId: actor.id });
    switch (change.outcome) {
      case "changed":
        return { userId, role, changed: true };
      case "unchanged":
        return { userId, role, changed: false };
      case "not_found":
        throw new AppError("not_found:user");
      case "stale":
        throw new AppError("conflict:role_changed");
      case "last_admin":
        throw new AppError("conflict:last_admin");
    }
  },
);
