"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { serveAction } from "@/app/_lib/serve-action";
import type { DbClient } from "@/lib/db/db-types";
import { disconnectProvider } from "@/lib/oauth/disconnect-provider";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { providerNameSchema } from "@/lib/oauth/provider-registry";

const disconnectInput = z.object({ provider: providerNameSchema }).strict();

/** Forgets the signed-in user's connection to one provider. */
export const disconnectProviderAction = serveAction(
  defineAction(
    { role: "user", input: disconnectInput },
    async ({ actor, input }, { db }: { db: DbClient }) => {
      // Ownership: the connection is looked up and deleted by the signed-in user's id only.
      const outcome = await disconnectProvider({
        db,
        runtime: getOAuthRuntime(),
        userId: actor.id,
        provider: input.provider,
      });
      revalidatePath("/settings/connections");
      return outcome;
    },
  ),
);
