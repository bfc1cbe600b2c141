import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { revokeUserSessionsById } from "@/lib/db/session-versions";
import { AppError } from "@/lib/errors";

export const signOutUserEverywhereInput = z.object({ userId: z.string().min(1).max(64) }).strict();

/**
 * An admin ends every session of an account (a lost laptop, a leaked cookie): each of that
 * user's tokens is refused from their next request on. Their own account included, which simply
 * signs the admin out too.
 */
export const signOutUserEverywhere = defineAction(
  { role: "admin", input: signOutUserEverywhereInput },
  async ({ actor, input: { userId } }, { db }: { db: DbClient }) => {
    if (!(await revokeUserSessionsById({ db, userId, actorId: actor.id })))
      throw new AppError("not_found:user");
    return { userId };
  },
);
