import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { setEmailWhenDecidedByUser } from "@/lib/db/decided-mail";
import { setEmailModeByUser } from "@/lib/db/notification-settings";
import { EMAIL_MODES } from "@/lib/domain/notifications";

const emailModeInput = z.object({ mode: z.enum(EMAIL_MODES), whenDecided: z.boolean() }).strict();

/**
 * How the signed-in person hears of new requests by email. Only their own setting: the user id
 * comes from the session, never from the input. It applies to requests opened from now on;
 * `whenDecided`, to requests of theirs decided from now on.
 */
export const setEmailMode = defineAction(
  { role: "user", input: emailModeInput },
  async ({ actor, input: { mode, whenDecided } }, { db }: { db: DbClient }) => {
    await setEmailModeByUser({ db, userId: actor.id, mode });
    await setEmailWhenDecidedByUser({ db, userId: actor.id, on: whenDecided });
    return { mode, whenDecided };
  },
);
