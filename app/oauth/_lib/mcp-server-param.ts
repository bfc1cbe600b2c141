import { z } from "zod";
import { getAppServices } from "@/app/_lib/app-services";
import { signInServerOf } from "@/lib/agent/mcp/app-mcp-pool";
import type { McpSignInServer } from "@/lib/oauth/mcp-client-provider";
import { OAuthError } from "@/lib/oauth/oauth-error";

const serverParamsSchema = z.object({ server: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

/**
 * The `[server]` segment of an MCP sign-in route, and that server as configured now: undefined
 * when it is no longer there (removed, disabled, no longer marked `oauth`). Only the
 * configuration names the URL the flow talks to; nothing in the request can.
 */
export async function resolveMcpServerParam(
  params: unknown,
): Promise<{ name: string; server: McpSignInServer | undefined }> {
  const parsed = serverParamsSchema.safeParse(params);
  if (!parsed.success) throw new OAuthError("provider:unknown", "No such MCP server");
  const name = parsed.data.server;
  const { mcp } = await getAppServices();
  const desired = await mcp.configured();
  const match = desired.servers.find((server) => server.name === name && server.status === "enabled");
  const server = match?.status === "enabled" ? signInServerOf(name, match.entry) : undefined;
  return { name, server };
}
