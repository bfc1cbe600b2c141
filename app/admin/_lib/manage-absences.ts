import { z } from "zod";
import { absenceIdInput, absencePeriodFields } from "@/app/_lib/absence-input";
import { defineAction } from "@/app/_lib/define-action";
import { endAbsence, setAbsence } from "@/lib/db/absences";
import type { DbClient } from "@/lib/db/db-types";
import { getUserByEmail } from "@/lib/db/users";
import type { AbsenceView } from "@/lib/domain/absence";
import { AppError } from "@/lib/errors";

type Deps = { db: DbClient };

const NOBODY = "is nobody with an account here";

/**
 * An admin sets anyone's absence, under the same rules as the person's own; the audit names the
 * admin as who set it. `user` is the absent person's email, refused on its field when unknown.
 */
export const setAbsenceAsAdmin = defineAction(
  {
    role: "admin",
    input: z
      .object({
        user: z.string().trim().min(1, "Enter the email of who is away.").max(320),
        ...absencePeriodFields,
      })
      .strict(),
  },
  async ({ actor, input }, { db }: Deps): Promise<AbsenceView> => {
    const person = await getUserByEmail({ db, email: input.user });
    if (!person) {
      throw new AppError("bad_request:input", {
        message: `Who is away: ${NOBODY}.`,
        issues: [{ path: "/user", message: NOBODY }],
      });
    }
    return setAbsence({
      db,
      userId: person.id,
      delegateEmail: input.delegate,
      startsAt: new Date(input.from),
      endsAt: new Date(input.until),
      actorId: actor.id,
      now: new Date(),
    });
  },
);

/** An admin ends anyone's absence now (one not begun is removed). */
export const endAbsenceAsAdmin = defineAction(
  { role: "admin", input: absenceIdInput },
  async ({ actor, input: { id } }, { db }: Deps): Promise<{ id: string }> => {
    if (!(await endAbsence({ db, id, actorId: actor.id, now: new Date() })))
      throw new AppError("not_found:absence");
    return { id };
  },
);
