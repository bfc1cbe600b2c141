import { z } from "zod";

// What a form sends to set an absence (ADR 0098), for the person's own settings and the admins'
// page alike: two instants the browser made from the times typed in the viewer's zone, and the
// delegate's email. The field names are the paths the storage rules name (`/from`, `/until`,
// `/delegate`), so every refusal lands beside the input it is about.

const instant = z.iso.datetime({ offset: true, message: "must be a date and time" });

export const absencePeriodFields = {
  from: instant,
  until: instant,
  delegate: z.string().trim().min(1, "Enter the email of who covers.").max(320),
};

/** An absence's id, as the End now buttons send it. */
export const absenceIdInput = z.object({ id: z.string().min(1).max(64) }).strict();
