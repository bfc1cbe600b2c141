"use server";

import { revalidatePath } from "next/cache";
import { serveAction } from "@/app/_lib/serve-action";
import { revokeAnyToken } from "@/app/settings/tokens/_lib/manage-tokens";

/** Revokes anyone's API token (admins only): its next call is refused. */
export const revokeAnyTokenAction = serveAction(async (call, services) => {
  const revoked = await revokeAnyToken(call, services);
  revalidatePath("/admin/tokens");
  return revoked;
});
