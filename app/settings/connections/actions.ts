"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { serveAction } from "@/app/_lib/serve-action";
import { resolveMcpServerParam } from "@/app/oauth/_lib/mcp-server-param";
import type { DbClient } from "@/lib/db/db-types";
import { disconnectMcpServer } from "@/lib/oauth/disconnect-mcp-server";
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

const disconnectMcpInput = z.object({ server: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }).strict();

/** Forgets the signed-in user's tokens for one MCP server, revoking them there when it can. */
export const disconnectMcpServerAction = serveAction(
  defineAction(
    { role: "user", input: disconnectMcpInput },
    async ({ actor, input }, { db }: { db: DbClient }) => {
      const { name, server } = await resolveMcpServerParam({ server: input.server });
      // Ownership: the tokens are looked up and deleted by the signed-in user's id only.
      const outcome = await disconnectMcpServer({
        db,
        runtime: getOAuthRuntime(),
        userId: actor.id,
        serverName: name,
        server,
      });
      revalidatePath("/settings/connections");
      return outcome;
    },
  ),
);
