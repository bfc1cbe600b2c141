import { z } from "zod";
import type { DbClient } from "@/lib/db/db-types";
import { claimOAuthState } from "@/lib/db/oauth-states";
import { getRequestById } from "@/lib/db/requests";
import type { Actor } from "@/lib/domain/roles";
import type { AnswerInput } from "@/lib/engine/engine-types";
import { AppError, isAppError } from "@/lib/errors";
import { codeVerifierContext } from "./begin-authorization";
import { saveConnectionTokens } from "./connection-tokens";
import { exchangeAuthorizationCode } from "./oauth-client";
import { OAuthError } from "./oauth-error";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { decryptionKeys } from "./secret-keys";
import { hashState, verifyState } from "./state";
import { decryptToken } from "./token-crypto";

export const callbackQuerySchema = z
  .object({
    state: z.string().min(1).max(4096),
    code: z.string().min(1).max(4096).optional(),
    error: z.string().min(1).max(200).optional(),
    error_description: z.string().max(2000).optional(),
    iss: z.string().max(2000).optional(),
  })
  .refine((q) => Boolean(q.code) !== Boolean(q.error), { message: "exactly one of code and error" });

export type CallbackOutcome =
  | { status: "connected"; threadId: string }
  | { status: "declined"; threadId: string }
  /** Tokens were stored, but the request had already been resolved (answered, expired, cancelled). */
  | { status: "connected_request_closed"; threadId: string };

export type AnswerRequestFn = (input: AnswerInput) => Promise<unknown>;

/** Treats "somebody else resolved it first" as an outcome, not a failure. */
export async function answerOrClosed(answer: AnswerRequestFn, input: AnswerInput): Promise<boolean> {
  try {
    await answer(input);
    return true;
  } catch (error) {
    if (isAppError(error, "conflict:answer") || isAppError(error, "conflict:request_closed")) return false;
    if (isAppError(error, "expired:request")) return false;
    throw error;
  }
}

/** The PKCE verifier sealed into a sign-in's state; a state that does not open was tampered with. */
export function readStoredCodeVerifier(sealed: string, runtime: OAuthRuntime, stateHash: string): string {
  try {
    return decryptToken(sealed, decryptionKeys(runtime.keys), codeVerifierContext(stateHash));
  } catch (error) {
    throw new OAuthError("state:tampered", "The stored sign-in state could not be read", { cause: error });
  }
}

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
  const parsed = callbackQuerySchema.safeParse(Object.fromEntries(options.params));
  if (!parsed.success) throw new OAuthError("state:malformed", "The sign-in response is incomplete");
  const query = parsed.data;

  const claims = verifyState(query.state, runtime.keys.state, now.getTime());
  if (claims.provider !== provider.name) {
    throw new OAuthError("state:mismatch", "This sign-in response is for a different provider");
  }
  if (claims.userId !== user.id) {
    throw new OAuthError("state:mismatch", "This sign-in was started by a different account");
  }

  const stateHash = hashState(query.state);
  const claim = await claimOAuthState({ db, stateHash, now });
  if (claim.status === "unknown")
    throw new OAuthError("state:unknown", "This sign-in link is not known here");
  if (claim.status === "used") throw new OAuthError("state:used", "This sign-in link has already been used");
  if (claim.status === "expired") throw new OAuthError("state:expired", "The sign-in link has expired");
  const stored = claim.state;
  if (stored.requestRowId !== claims.requestRowId || stored.userId !== user.id) {
    throw new OAuthError("state:mismatch", "This sign-in response does not match its request");
  }

  const request = await getRequestById({ db, id: stored.requestRowId });
  if (!request) throw new AppError("not_found:request");
  const actor = { id: user.id, role: user.role };

  if (query.error) {
    if (query.error !== "access_denied") {
      // Leave the request open: the user can try again from the chat.
      throw new OAuthError(
        "provider:error",
        `${provider.label} could not complete the sign-in (${query.error})`,
      );
    }
    const answered = await answerOrClosed(options.answerRequest, {
      requestId: request.id,
      answer: { ok: false, reason: "declined" },
      actor,
    });
    if (!answered) throw new AppError("conflict:request_closed");
    return { status: "declined", threadId: request.threadId };
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
