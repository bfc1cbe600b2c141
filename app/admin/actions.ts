"use server";

import { type ActionResult, toActionResult } from "@/app/_lib/action-result";
import { getAppServices } from "@/app/_lib/app-services";
import { requireRole } from "@/lib/auth/guards";
import type { Role } from "@/lib/domain/roles";
import { cancelRunAsAdmin } from "./_lib/cancel-run-as-admin";
import { changeToolPolicy, type ToolPolicyChanged } from "./_lib/change-tool-policy";
import { changeUserRole } from "./_lib/change-user-role";
import { signOutUserEverywhere } from "./_lib/sign-out-user-everywhere";

/** Sets another account's role; it applies on that user's next request. */
export async function changeUserRoleAction(
  input: unknown,
): Promise<ActionResult<{ userId: string; role: Role; changed: boolean }>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return changeUserRole({ actor, input }, await getAppServices());
  });
}

/** Ends anyone's running or parked run; its owner's chat shows it cancelled. */
export async function cancelRunAsAdminAction(input: unknown): Promise<ActionResult<{ runId: string }>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return cancelRunAsAdmin({ actor, input }, await getAppServices());
  });
}

/** Ends every session of an account; each of its tokens is refused from the next request on. */
export async function signOutUserEverywhereAction(input: unknown): Promise<ActionResult<{ userId: string }>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return signOutUserEverywhere({ actor, input }, await getAppServices());
  });
}

/** Sets the approval policy of one of the agent's tools; the next call of it, anywhere, follows it. */
export async function changeToolPolicyAction(input: unknown): Promise<ActionResult<ToolPolicyChanged>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return changeToolPolicy({ actor, input }, await getAppServices());
  });
}
