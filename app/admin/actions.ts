"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { cancelRunAsAdmin } from "./_lib/cancel-run-as-admin";
import { changeBuiltinTool } from "./_lib/change-builtin-tool";
import { changeToolPolicy } from "./_lib/change-tool-policy";
import { changeUserRole } from "./_lib/change-user-role";
import { endAbsenceAsAdmin, setAbsenceAsAdmin } from "./_lib/manage-absences";
import { signOutUserEverywhere } from "./_lib/sign-out-user-everywhere";

/** Sets another account's role; it applies on that user's next request. */
export const changeUserRoleAction = serveAction(changeUserRole);

/** Ends anyone's running or parked run; its owner's chat shows it cancelled. */
export const cancelRunAsAdminAction = serveAction(cancelRunAsAdmin);

/** Ends every session of an account; each of its tokens is refused from the next request on. */
export const signOutUserEverywhereAction = serveAction(signOutUserEverywhere);

/** Sets the approval policy of one of the agent's tools; the next call of it, anywhere, follows it. */
export const changeToolPolicyAction = serveAction(changeToolPolicy);

/** Switches one of the library's built-ins on or off for every chat, from the next run on. */
export const changeBuiltinToolAction = serveAction(changeBuiltinTool);

/** Sets anyone's absence and who covers for them, under the rules a person's own follows. */
export const setAbsenceAsAdminAction = serveAction(setAbsenceAsAdmin);

/** Ends anyone's absence now, or removes one not begun. */
export const endAbsenceAsAdminAction = serveAction(endAbsenceAsAdmin);
