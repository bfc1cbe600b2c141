"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ActionResult, toActionResult } from "@/app/_lib/action-result";
import { requireUser } from "@/lib/auth/guards";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { type DisconnectOutcome, disconnectProvider } from "@/lib/oauth/disconnect-provider";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { providerNameSchema } from "@/lib/oauth/provider-registry";

const disconnectSchema = z.object({ provider: providerNameSchema });

export async function disconnectProviderAction(
  _previous: ActionResult<DisconnectOutcome> | null,
  form: FormData,
): Promise<ActionResult<DisconnectOutcome>> {
  return toActionResult(async () => {
    const user = await requireUser();
    const parsed = disconnectSchema.safeParse({ provider: form.get("provider") });
    if (!parsed.success) throw new AppError("bad_request:input");
    // Ownership: the connection is looked up and deleted by the signed-in user's id only.
    const outcome = await disconnectProvider({
      db: getDb(),
      runtime: getOAuthRuntime(),
      userId: user.id,
      provider: parsed.data.provider,
    });
    revalidatePath("/settings/connections");
    return outcome;
  });
}
