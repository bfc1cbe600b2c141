import { getAuthorizationRequestByWireId } from "@/lib/db/authorization-requests";
import type { DbClient } from "@/lib/db/db-types";
import { createOAuthState, deleteExpiredOAuthStates } from "@/lib/db/oauth-states";
import { AppError } from "@/lib/errors";
import { oauthCallbackUrl } from "./app-url";
import { buildAuthorizationUrl, createPkcePair } from "./oauth-client";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { issueState } from "./state";
import { encryptToken } from "./token-crypto";

// Expired states are kept a while so a late callback is told "expired" rather than "unknown".
const EXPIRED_STATE_RETENTION_MS = 24 * 60 * 60 * 1000;

export function codeVerifierContext(stateHash: string): string {
  return `oauth-state:${stateHash}`;
}

/**
 * Starts the provider sign-in for one parked authorization request: checks that the request is
 * the signed-in user's and still open, then stores a single-use state with the PKCE verifier
 * and returns the provider's authorization URL to redirect to.
 */
export async function beginAuthorization(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  provider: string;
  wireRequestId: string;
  now?: Date;
}): Promise<URL> {
  const { db, runtime, userId } = options;
  const now = options.now ?? new Date();
  const provider = getProviderConfig(runtime.registry, options.provider);

  const row = await getAuthorizationRequestByWireId({ db, wireId: options.wireRequestId });
  // Someone else's request is refused as if it did not exist, so an id reveals nothing.
  if (!row || row.request.data?.provider !== provider.name || row.ownerId !== userId) {
    throw new AppError("not_found:request");
  }
  if (row.status !== "open") throw new AppError("conflict:request_closed");
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) throw new AppError("expired:request");

  const issued = issueState({
    requestRowId: row.id,
    userId,
    provider: provider.name,
    key: runtime.keys.state,
    now: now.getTime(),
  });
  const pkce = await createPkcePair();
  const redirectUri = oauthCallbackUrl(runtime.appUrl, provider.name);
  const url = await buildAuthorizationUrl({
    provider,
    redirectUri,
    state: issued.state,
    codeChallenge: pkce.codeChallenge,
  });
  await createOAuthState({
    db,
    state: {
      stateHash: issued.stateHash,
      requestRowId: row.id,
      userId,
      provider: provider.name,
      codeVerifierEnc: encryptToken(
        pkce.codeVerifier,
        runtime.keys.encryption,
        codeVerifierContext(issued.stateHash),
      ),
      redirectUri,
      expiresAt: issued.expiresAt,
    },
  });
  await deleteExpiredOAuthStates({ db, expiredBefore: new Date(now.getTime() - EXPIRED_STATE_RETENTION_MS) });
  return url;
}
