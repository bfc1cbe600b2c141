import { z } from "zod";
import { absenceIdInput, absencePeriodFields } from "@/app/_lib/absence-input";
import { defineAction } from "@/app/_lib/define-action";
import { endAbsence, setAbsence } from "@/lib/db/absences";
import type { DbClient } from "@/lib/db/db-types";
import type { AbsenceView } from "@/lib/domain/absence";
import { AppError } from "@/lib/errors";

type Deps = { db: DbClient };

/**
 * The signed-in person sets when they are away and who covers for them. Only their own: whose
 * absence it is comes from the session, never from the input; the rules (no self, no loop, no
 * overlap, a delegate who may see what is sent) are storage's, refused on the field at fault.
 */
export const setOwnAbsence = defineAction(
  { role: "user", input: z.object(absencePeriodFields).strict() },
  async ({ actor, input }, { db }: Deps): Promise<AbsenceView> =>
    setAbsence({
      db,
      userId: actor.id,
      delegateEmail: input.delegate,
      startsAt: new Date(input.from),
      endsAt: new Date(input.until),
      actorId: actor.id,
      now: new Date(),
    }),
);

/** Ends one of the signed-in person's own absences now (one not begun is removed). */
export const endOwnAbsence = defineAction(
  { role: "user", input: absenceIdInput },
  async ({ actor, input: { id } }, { db }: Deps): Promise<{ id: string }> => {
    const ended = await endAbsence({ db, id, userId: actor.id, actorId: actor.id, now: new Date() });
    if (!ended) throw new AppError("not_found:absence");
    return { id };
  },
);
