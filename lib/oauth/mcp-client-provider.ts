import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthSettings } from "toolnexus";
import type { DbClient } from "@/lib/db/db-types";
import {
  deleteMcpConnection,
  deleteMcpOAuthClient,
  getMcpConnectionByUserServer,
  getMcpOAuthClientByServer,
  upsertMcpConnection,
  upsertMcpOAuthClient,
} from "@/lib/db/mcp-connections";
import type { OAuthRuntime } from "./oauth-runtime";
import { decryptionKeys } from "./secret-keys";
import { decryptToken, encryptToken } from "./token-crypto";

/** An MCP server whose users sign in on their own, as the app's pool knows it. */
export interface McpSignInServer {
  name: string;
  url: string;
  oauth: McpOAuthSettings;
}

/** Where the authorization server sends the browser back for this server. */
export function mcpCallbackUrl(appUrl: string, server: string): string {
  return `${appUrl}/oauth/mcp/${encodeURIComponent(server)}/callback`;
}

export function mcpStartUrl(appUrl: string, server: string, requestId: string): string {
  return `${appUrl}/oauth/mcp/${encodeURIComponent(server)}/start?request=${encodeURIComponent(requestId)}`;
}

/** The `provider` name of an MCP server's sign-in in requests and states; never a registry name. */
export function mcpProviderName(server: string): string {
  return `mcp:${server}`;
}

/** Associated data binding sealed tokens to their user and server, so rows cannot be swapped. */
export function mcpTokensContext(userId: string, server: string): string {
  return `mcp-connection:${userId}:${server}:tokens`;
}

function clientContext(server: string): string {
  return `mcp-client:${server}`;
}

/**
 * What the SDK's flow does in each place it runs:
 * - `run`: a tool call. Sends the user's token, refreshes it on a 401 and saves the result; when
 *   only a new sign-in helps, the flow ends (the call becomes an `authorization` request) and
 *   whatever it prepared for a browser is dropped: the start link prepares its own.
 * - `start`: the start link. No tokens, so the SDK always starts a fresh authorization; the state
 *   is ours, and the verifier and the authorization URL are captured for the route.
 * - `callback`: exchanging the code with the verifier stored at the start.
 * - `probe`: the pool's anonymous connection, which lists tools and never holds a token.
 */
export type McpProviderMode =
  | { kind: "run" }
  /** The pool's anonymous connection that only lists tools: no user, nothing saved for one. */
  | { kind: "probe" }
  | { kind: "start"; state: string; captured: { url?: URL; codeVerifier?: string } }
  | { kind: "callback"; codeVerifier: string };

export function createMcpOAuthProvider(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  server: McpSignInServer;
  mode: McpProviderMode;
}): OAuthClientProvider {
  const { db, runtime, userId, server, mode } = options;
  const redirectUrl = mcpCallbackUrl(runtime.appUrl, server.name);
  const preRegistered = server.oauth.clientId !== undefined;
  let discovery: OAuthDiscoveryState | undefined;
  // The sealed tokens this provider last read or wrote. Several processes (and connections)
  // act for one user: when one refreshes a rotating refresh token, another's refresh with the
  // old one is refused. Only the tokens that were refused may be thrown away; a row another
  // process has since replaced holds the good ones, which the SDK's retry then reads.
  let usedTokensEnc: string | undefined;

  const clientMetadata: OAuthClientMetadata = {
    client_name: "toolnexus",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
    ...(server.oauth.scope ? { scope: server.oauth.scope } : {}),
  };

  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return clientMetadata;
    },
    async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
      if (preRegistered) {
        return {
          client_id: server.oauth.clientId!,
          ...(server.oauth.clientSecret ? { client_secret: server.oauth.clientSecret } : {}),
        };
      }
      const row = await getMcpOAuthClientByServer({ db, server: server.name });
      if (!row) return undefined;
      try {
        const info = JSON.parse(
          decryptToken(row.clientInfoEnc, decryptionKeys(runtime.keys), clientContext(server.name)),
        ) as OAuthClientInformationMixed;
        return { ...info, issuer: row.issuer };
      } catch {
        // Sealed with a key no longer configured: register again.
        return undefined;
      }
    },
    async tokens(): Promise<OAuthTokens | undefined> {
      if (mode.kind !== "run") return undefined;
      const row = await getMcpConnectionByUserServer({ db, userId, server: server.name });
      usedTokensEnc = row?.tokensEnc;
      if (!row) return undefined;
      try {
        const tokens = JSON.parse(
          decryptToken(row.tokensEnc, decryptionKeys(runtime.keys), mcpTokensContext(userId, server.name)),
        ) as OAuthTokens;
        return { ...tokens, issuer: row.issuer };
      } catch {
        await deleteMcpConnection({ db, userId, server: server.name, tokensEnc: row.tokensEnc });
        return undefined;
      }
    },
    async saveTokens(tokens) {
      if (mode.kind === "probe") return;
      const { issuer, ...rest } = tokens;
      const expiresAt =
        typeof rest.expires_in === "number" ? new Date(Date.now() + rest.expires_in * 1000) : null;
      const tokensEnc = encryptToken(
        JSON.stringify(rest),
        runtime.keys.encryption,
        mcpTokensContext(userId, server.name),
      );
      await upsertMcpConnection({
        db,
        userId,
        server: server.name,
        tokens: { issuer: issuer ?? "", scopes: rest.scope ?? "", tokensEnc, expiresAt },
      });
      usedTokensEnc = tokensEnc;
    },
    async redirectToAuthorization(url) {
      if (mode.kind === "start") mode.captured.url = url;
    },
    async saveCodeVerifier(codeVerifier) {
      if (mode.kind === "start") mode.captured.codeVerifier = codeVerifier;
    },
    async codeVerifier() {
      if (mode.kind !== "callback") throw new Error("No sign-in is being completed here");
      return mode.codeVerifier;
    },
    async invalidateCredentials(scope) {
      if ((scope === "all" || scope === "tokens") && mode.kind === "run" && usedTokensEnc) {
        // A refused refresh: only a new sign-in helps, so the next call asks for one; unless
        // another process has stored fresh tokens meanwhile, which are kept.
        await deleteMcpConnection({ db, userId, server: server.name, tokensEnc: usedTokensEnc });
        usedTokensEnc = undefined;
      }
      if ((scope === "all" || scope === "client") && !preRegistered) {
        await deleteMcpOAuthClient({ db, server: server.name });
      }
      if (scope === "all" || scope === "discovery") discovery = undefined;
    },
    saveDiscoveryState(state) {
      discovery = state;
    },
    discoveryState: () => discovery,
  };
  if (!preRegistered) {
    provider.saveClientInformation = async (info) => {
      const { issuer, ...rest } = info as OAuthClientInformationMixed & { issuer?: string };
      await upsertMcpOAuthClient({
        db,
        server: server.name,
        issuer: issuer ?? "",
        clientInfoEnc: encryptToken(
          JSON.stringify(rest),
          runtime.keys.encryption,
          clientContext(server.name),
        ),
      });
    };
  }
  if (mode.kind === "start") provider.state = () => mode.state;
  return provider;
}
