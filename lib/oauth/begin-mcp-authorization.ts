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
import { issueState } from "./state";
import { encryptToken } from "./token-crypto";

/** One line naming what failed, never a response body (it could quote anything). */
export function mcpFlowFailure(server: string, error: unknown): OAuthError {
  const reason = isAddressRefused(error)
    ? describeOutboundFailure(error)
    : error instanceof Error
      ? error.message.split("\n")[0]!.slice(0, 300)
      : "unknown error";
  return new OAuthError("provider:error", `Signing in to ${server} failed: ${reason}`, { cause: error });
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
