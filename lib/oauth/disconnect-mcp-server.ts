import { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import * as oauth from "oauth4webapi";
import type { DbClient } from "@/lib/db/db-types";
import { deleteMcpConnection, getMcpConnectionByUserServer } from "@/lib/db/mcp-connections";
import { logger } from "@/lib/log/logger";
import type { DisconnectOutcome } from "./disconnect-provider";
import { createMcpOAuthProvider, type McpSignInServer, mcpTokensContext } from "./mcp-client-provider";
import type { OAuthRuntime } from "./oauth-runtime";
import { decryptionKeys } from "./secret-keys";
import { decryptToken } from "./token-crypto";

function isLocal(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === "localhost" || hostname === "127.0.0.1";
}

/** RFC 7009 at the server's authorization server, when it has a revocation endpoint. */
async function revoke(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  server: McpSignInServer;
  tokens: OAuthTokens;
}): Promise<boolean> {
  const { server, runtime } = options;
  const info = await discoverOAuthServerInfo(server.url, { fetchFn: runtime.outboundFetch });
  const metadata = info.authorizationServerMetadata as oauth.AuthorizationServer | undefined;
  if (!metadata?.revocation_endpoint) return false;
  const provider = createMcpOAuthProvider({ ...options, mode: { kind: "run" } });
  const client = await provider.clientInformation();
  if (!client) return false;
  const secret = "client_secret" in client ? client.client_secret : undefined;
  const clientAuth = secret ? oauth.ClientSecretBasic(secret) : oauth.None();
  const http = {
    [oauth.allowInsecureRequests]: isLocal(metadata.revocation_endpoint),
    [oauth.customFetch]: runtime.outboundFetch as typeof fetch,
  };
  let revoked = false;
  // The refresh token first: revoking it ends the whole grant at most servers.
  for (const token of [options.tokens.refresh_token, options.tokens.access_token]) {
    if (!token) continue;
    const response = await oauth.revocationRequest(
      metadata,
      { client_id: client.client_id },
      clientAuth,
      token,
      http,
    );
    await oauth.processRevocationResponse(response);
    revoked = true;
  }
  return revoked;
}

/**
 * Forgets the user's tokens for one MCP server, after asking its authorization server to
 * revoke them where it can. Revocation is best effort: the tokens are deleted here even when
 * the server is down or no longer configured.
 */
export async function disconnectMcpServer(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  serverName: string;
  server: McpSignInServer | undefined;
}): Promise<DisconnectOutcome> {
  const { db, runtime, userId, serverName, server } = options;
  const row = await getMcpConnectionByUserServer({ db, userId, server: serverName });
  if (!row) return { status: "not_connected" };
  let revokedAtProvider = false;
  if (server) {
    try {
      const tokens = JSON.parse(
        decryptToken(row.tokensEnc, decryptionKeys(runtime.keys), mcpTokensContext(userId, serverName)),
      ) as OAuthTokens;
      revokedAtProvider = await revoke({ db, runtime, userId, server, tokens });
    } catch (error) {
      // Only the reason's name: a response could quote anything.
      logger.warn(
        { server: serverName, errorType: (error as Error)?.name },
        "could not revoke the MCP server's token",
      );
    }
  }
  await deleteMcpConnection({ db, userId, server: serverName });
  return { status: "disconnected", revokedAtProvider };
}
