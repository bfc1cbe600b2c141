import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { getAuthorizationRequestByWireId } from "@/lib/db/authorization-requests";
import type { DbClient } from "@/lib/db/db-types";
import { createOAuthState } from "@/lib/db/oauth-states";
import { AppError } from "@/lib/errors";
import { describeOutboundFailure, isAddressRefused } from "@/lib/http/outbound-failure";
import { codeVerifierContext } from "./begin-authorization";
import {
  createMcpOAuthProvider,
  type McpSignInServer,
  mcpCallbackUrl,
  mcpProviderName,
} from "./mcp-client-provider";
import { OAuthError } from "./oauth-error";
import type { OAuthRuntime } from "./oauth-runtime";
import { providerRefusal } from "./provider-error";
import { issueState } from "./state";
import { encryptToken } from "./token-crypto";

/**
 * What failed, in words of our own: an address this app refuses to reach is named, and anything
 * else the server or its authorization server said (the SDK's errors quote their descriptions,
 * response bodies and metadata) is logged, while the person reads fixed words for its code.
 */
export function mcpFlowFailure(
  server: string,
  error: unknown,
  during = "discovery or registration",
): OAuthError {
  if (isAddressRefused(error)) {
    const reason = describeOutboundFailure(error);
    return new OAuthError("provider:error", `Signing in to ${server} failed: ${reason}`, { cause: error });
  }
  // The SDK's OAuth errors carry the RFC 6749 code the server sent.
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  return providerRefusal({
    label: server,
    code: typeof code === "string" ? code : undefined,
    description: error instanceof Error ? error.message : undefined,
    during,
  });
}

/**
 * Starts a user's sign-in to an MCP server for one parked request. The SDK does what the MCP
 * authorization spec asks (protected resource metadata, authorization server discovery,
 * dynamic registration when there is no client yet, PKCE, the `resource` indicator); this
 * checks the request first and keeps the state and verifier, bound to the user and request.
 */
export async function beginMcpAuthorization(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  server: McpSignInServer | undefined;
  serverName: string;
  wireRequestId: string;
  now?: Date;
}): Promise<URL> {
  const { db, runtime, userId, server } = options;
  const now = options.now ?? new Date();
  const providerName = mcpProviderName(options.serverName);

  const row = await getAuthorizationRequestByWireId({ db, wireId: options.wireRequestId });
  // Someone else's request is refused as if it did not exist, so an id reveals nothing.
  if (!row || row.request.data?.provider !== providerName || row.ownerId !== userId) {
    throw new AppError("not_found:request");
  }
  if (row.status !== "open") throw new AppError("conflict:request_closed");
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) throw new AppError("expired:request");
  if (!server)
    throw new OAuthError("provider:unknown", `The MCP server ${options.serverName} is not configured`);

  const issued = issueState({
    requestRowId: row.id,
    userId,
    provider: providerName,
    key: runtime.keys.state,
    now: now.getTime(),
  });
  const captured: { url?: URL; codeVerifier?: string } = {};
  const provider = createMcpOAuthProvider({
    db,
    runtime,
    userId,
    server,
    mode: { kind: "start", state: issued.state, captured },
  });
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, { serverUrl: server.url, fetchFn: runtime.outboundFetch });
  } catch (error) {
    throw mcpFlowFailure(server.name, error);
  }
  if (result !== "REDIRECT" || !captured.url || !captured.codeVerifier) {
    throw new OAuthError("provider:error", `${server.name} did not ask for a sign-in`);
  }
  await createOAuthState({
    db,
    state: {
      stateHash: issued.stateHash,
      requestRowId: row.id,
      userId,
      provider: providerName,
      codeVerifierEnc: encryptToken(
        captured.codeVerifier,
        runtime.keys.encryption,
        codeVerifierContext(issued.stateHash),
      ),
      redirectUri: mcpCallbackUrl(runtime.appUrl, server.name),
      expiresAt: issued.expiresAt,
    },
  });
  return captured.url;
}
