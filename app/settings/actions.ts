"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { setEmailMode } from "./_lib/set-email-mode";

/**
 * Saves the signed-in person's email setting: each new request at once, a digest, or none; and
 * whether to be mailed when a request they asked is decided.
 */
export const setEmailModeAction = serveAction(setEmailMode);
