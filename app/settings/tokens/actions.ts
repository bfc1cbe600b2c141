"use server";

import { revalidatePath } from "next/cache";
import { serveAction } from "@/app/_lib/serve-action";
import { createToken, revokeOwnToken, revokeTokenGrant } from "./_lib/manage-tokens";

/** Makes a personal API token; its value is in the result only, shown once. */
export const createTokenAction = serveAction(async (call, services) => {
  const created = await createToken(call, services);
  revalidatePath("/settings/tokens");
  return created;
});

/** Revokes one of the signed-in person's tokens: its next call is refused. */
export const revokeOwnTokenAction = serveAction(async (call, services) => {
  const revoked = await revokeOwnToken(call, services);
  revalidatePath("/settings/tokens");
  return revoked;
});

/** Takes back "always allow <tool> for this token"; the token's next prompt for it asks again. */
export const revokeTokenGrantAction = serveAction(async (call, services) => {
  const revoked = await revokeTokenGrant(call, services);
  revalidatePath("/settings/tokens");
  return revoked;
});
