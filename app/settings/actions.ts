"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { endOwnAbsence, setOwnAbsence } from "./_lib/manage-own-absences";
import { setEmailMode } from "./_lib/set-email-mode";

/**
 * Saves the signed-in person's email setting: each new request at once, a digest, or none; and
 * whether to be mailed when a request they asked is decided.
 */
export const setEmailModeAction = serveAction(setEmailMode);

/** Sets when the signed-in person is away and who covers for them meanwhile. */
export const setOwnAbsenceAction = serveAction(setOwnAbsence);

/** Ends one of the signed-in person's absences now, or removes one not begun. */
export const endOwnAbsenceAction = serveAction(endOwnAbsence);
