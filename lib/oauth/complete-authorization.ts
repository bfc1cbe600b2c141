import type { DbClient } from "@/lib/db/db-types";
import type { Actor } from "@/lib/domain/roles";
import {
  type AnswerRequestFn,
  answerOrClosed,
  type CallbackOutcome,
  claimCallbackState,
  declineOnProviderError,
  parseCallbackQuery,
  readStoredCodeVerifier,
} from "./callback-steps";
import { saveConnectionTokens } from "./connection-tokens";
import { exchangeAuthorizationCode } from "./oauth-client";
import { OAuthError } from "./oauth-error";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { verifyState } from "./state";

export type { AnswerRequestFn, CallbackOutcome } from "./callback-steps";

/**
 * The provider redirected back. Every check that can fail without side effects runs before the
 * state is consumed, so a tampered, foreign or expired link changes nothing; the state is then
 * claimed atomically, so a replayed callback is refused even when it races the first.
 */
export async function completeAuthorization(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  user: Actor;
  provider: string;
  params: URLSearchParams;
  answerRequest: AnswerRequestFn;
  now?: Date;
}): Promise<CallbackOutcome> {
  const { db, runtime, user } = options;
  const now = options.now ?? new Date();
  const provider = getProviderConfig(runtime.registry, options.provider);
  const query = parseCallbackQuery(options.params);

  const claims = verifyState(query.state, runtime.keys.state, now.getTime());
  if (claims.provider !== provider.name) {
    throw new OAuthError("state:mismatch", "This sign-in response is for a different provider");
  }
  if (claims.userId !== user.id) {
    throw new OAuthError("state:mismatch", "This sign-in was started by a different account");
  }

  const { stored, stateHash, request, actor } = await claimCallbackState({
    db,
    user,
    state: query.state,
    claims,
    provider: provider.name,
    now,
  });
  if (query.error) {
    return declineOnProviderError({
      error: query.error,
      description: query.error_description,
      label: provider.label,
      answerRequest: options.answerRequest,
      request,
      actor,
    });
  }

  const codeVerifier = readStoredCodeVerifier(stored.codeVerifierEnc, runtime, stateHash);
  const tokens = await exchangeAuthorizationCode({
    provider,
    callbackParams: options.params,
    expectedState: query.state,
    redirectUri: stored.redirectUri,
    codeVerifier,
  });
  await saveConnectionTokens({ db, runtime, userId: user.id, provider: provider.name, tokens });

  // Only the provider and scopes travel in the answer; tokens stay in the encrypted store.
  const answered = await answerOrClosed(options.answerRequest, {
    requestId: request.id,
    answer: { ok: true, data: { provider: provider.name, scopes: tokens.scopes } },
    actor,
    // The code exchange above is the provider's consent: the one place a sign-in is accepted.
    via: "oauth_callback",
  });
  return { status: answered ? "connected" : "connected_request_closed", threadId: request.threadId };
}
