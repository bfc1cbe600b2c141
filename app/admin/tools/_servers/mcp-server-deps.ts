import "server-only";
import { getAppServices } from "@/app/_lib/app-services";
import type { McpServerDeps } from "@/app/admin/_lib/manage-mcp-servers";
import { checkServerEntry } from "@/lib/agent/mcp/library-connection";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";

/** What adding a server needs from the running app: its database, key, pool and the library's check. */
export async function mcpServerDeps(): Promise<McpServerDeps> {
  const { db, mcp } = await getAppServices();
  return {
    db,
    keys: () => getOAuthRuntime().keys,
    configNames: async () =>
      (await mcp.configured()).servers
        .filter((server) => server.origin === "config")
        .map((server) => server.name),
    checkEntry: checkServerEntry,
    allowPrivate: outboundPrivateAllowed(),
  };
}
