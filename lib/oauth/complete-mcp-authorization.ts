import { auth, discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import * as oauth from "oauth4webapi";
import type { DbClient } from "@/lib/db/db-types";
import type { Actor } from "@/lib/domain/roles";
import { mcpFlowFailure } from "./begin-mcp-authorization";
import {
  type AnswerRequestFn,
  answerOrClosed,
  type CallbackOutcome,
  claimCallbackState,
  declineOnProviderError,
  parseCallbackQuery,
  readStoredCodeVerifier,
} from "./callback-steps";
import { createMcpOAuthProvider, type McpSignInServer, mcpProviderName } from "./mcp-client-provider";
import { OAuthError } from "./oauth-error";
import type { OAuthRuntime } from "./oauth-runtime";
import { verifyState } from "./state";

/**
 * The authorization server sent the browser back. As with the tools' sign-ins, everything that
 * can fail without side effects runs before the state is consumed: the signature, the user, and
 * the response itself (its `iss`, RFC 9207, when the server issues one). The state is then
 * claimed atomically, the code exchanged with the stored PKCE verifier and the same `resource`,
 * the tokens sealed for this user and server, and the parked request answered.
 */
export async function completeMcpAuthorization(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  user: Actor;
  server: McpSignInServer | undefined;
  serverName: string;
  params: URLSearchParams;
  answerRequest: AnswerRequestFn;
  now?: Date;
}): Promise<CallbackOutcome> {
  const { db, runtime, user, server } = options;
  const now = options.now ?? new Date();
  const providerName = mcpProviderName(options.serverName);
  const query = parseCallbackQuery(options.params);

  const claims = verifyState(query.state, runtime.keys.state, now.getTime());
  if (claims.provider !== providerName) {
    throw new OAuthError("state:mismatch", "This sign-in response is for a different server");
  }
  if (claims.userId !== user.id) {
    throw new OAuthError("state:mismatch", "This sign-in was started by a different account");
  }
  if (!server)
    throw new OAuthError("provider:unknown", `The MCP server ${options.serverName} is not configured`);

  if (query.code) {
    let info: Awaited<ReturnType<typeof discoverOAuthServerInfo>>;
    try {
      info = await discoverOAuthServerInfo(server.url, { fetchFn: runtime.outboundFetch });
    } catch (error) {
      throw mcpFlowFailure(server.name, error);
    }
    const metadata = info.authorizationServerMetadata;
    if (!metadata)
      throw new OAuthError("provider:error", `${server.name} has no authorization server metadata`);
    try {
      oauth.validateAuthResponse(
        metadata as oauth.AuthorizationServer,
        { client_id: "unchecked" },
        options.params,
        query.state,
      );
    } catch (error) {
      throw new OAuthError(
        "state:mismatch",
        "The sign-in response did not come from the server's authorization server",
        {
          cause: error,
        },
      );
    }
  }

  const { stored, stateHash, request, actor } = await claimCallbackState({
    db,
    user,
    state: query.state,
    claims,
    provider: providerName,
    now,
  });
  if (query.error) {
    return declineOnProviderError({
      error: query.error,
      description: query.error_description,
      label: server.name,
      answerRequest: options.answerRequest,
      request,
      actor,
    });
  }

  const codeVerifier = readStoredCodeVerifier(stored.codeVerifierEnc, runtime, stateHash);
  const provider = createMcpOAuthProvider({
    db,
    runtime,
    userId: user.id,
    server,
    mode: { kind: "callback", codeVerifier },
  });
  try {
    const result = await auth(provider, {
      serverUrl: server.url,
      authorizationCode: query.code!,
      fetchFn: runtime.outboundFetch,
    });
    if (result !== "AUTHORIZED") throw new Error("the code was not accepted");
  } catch (error) {
    throw new OAuthError("exchange:failed", `${server.name} did not accept the sign-in`, { cause: error });
  }

  // Only the server's name travels in the answer; tokens stay in the sealed store.
  const answered = await answerOrClosed(options.answerRequest, {
    requestId: request.id,
    answer: { ok: true, data: { provider: providerName, server: server.name } },
    actor,
    via: "oauth_callback",
  });
  return { status: answered ? "connected" : "connected_request_closed", threadId: request.threadId };
}
