import type { DbClient } from "@/lib/db/db-types";
import {
  deleteOAuthConnection,
  getOAuthConnectionByUserProvider,
  replaceOAuthConnectionTokens,
  upsertOAuthConnection,
} from "@/lib/db/oauth-connections";
import { refreshTokenSet, type TokenSet } from "./oauth-client";
import { isOAuthError } from "./oauth-error";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { decryptionKeys } from "./secret-keys";
import { decryptToken, encryptToken } from "./token-crypto";

// Refresh a little early so a token does not expire between our check and the provider's.
const EXPIRY_SKEW_MS = 30_000;

/** Associated data binding a sealed token to its user, provider and role. */
export function connectionTokenContext(
  userId: string,
  provider: string,
  which: "access" | "refresh",
): string {
  return `oauth-connection:${userId}:${provider}:${which}`;
}

function seal(runtime: OAuthRuntime, userId: string, provider: string, tokens: TokenSet) {
  const key = runtime.keys.encryption;
  return {
    scopes: tokens.scopes.join(" "),
    accessTokenEnc: encryptToken(tokens.accessToken, key, connectionTokenContext(userId, provider, "access")),
    refreshTokenEnc: tokens.refreshToken
      ? encryptToken(tokens.refreshToken, key, connectionTokenContext(userId, provider, "refresh"))
      : null,
    tokenExpiresAt: tokens.expiresAt ?? null,
  };
}

export async function saveConnectionTokens(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  provider: string;
  tokens: TokenSet;
}): Promise<void> {
  const { db, runtime, userId, provider, tokens } = options;
  await upsertOAuthConnection({ db, userId, provider, tokens: seal(runtime, userId, provider, tokens) });
}

export type UsableToken =
  | { status: "ready"; accessToken: string; accessTokenEnc: string }
  | { status: "missing"; reason: "not_connected" | "expired" | "refresh_failed" | "unreadable" };

/**
 * The user's current access token for a provider, refreshed if it has expired. Anything that
 * makes the stored connection unusable removes it, so the next step is a fresh authorization.
 */
export async function getUsableAccessToken(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  provider: string;
  now?: Date;
}): Promise<UsableToken> {
  const { db, runtime, userId, provider } = options;
  const now = options.now ?? new Date();
  const keys = decryptionKeys(runtime.keys);
  const row = await getOAuthConnectionByUserProvider({ db, userId, provider });
  if (!row) return { status: "missing", reason: "not_connected" };
  const drop = async (reason: "expired" | "refresh_failed" | "unreadable") => {
    await deleteOAuthConnection({ db, userId, provider, accessTokenEnc: row.accessTokenEnc });
    return { status: "missing" as const, reason };
  };

  let accessToken: string;
  let refreshToken: string | undefined;
  try {
    accessToken = decryptToken(row.accessTokenEnc, keys, connectionTokenContext(userId, provider, "access"));
    if (row.refreshTokenEnc) {
      refreshToken = decryptToken(
        row.refreshTokenEnc,
        keys,
        connectionTokenContext(userId, provider, "refresh"),
      );
    }
  } catch {
    return drop("unreadable");
  }

  const fresh = !row.tokenExpiresAt || row.tokenExpiresAt.getTime() - EXPIRY_SKEW_MS > now.getTime();
  if (fresh) return { status: "ready", accessToken, accessTokenEnc: row.accessTokenEnc };
  if (!refreshToken) return drop("expired");

  let refreshed: TokenSet;
  try {
    refreshed = await refreshTokenSet({
      provider: getProviderConfig(runtime.registry, provider),
      refreshToken,
    });
  } catch (error) {
    // The provider refused the refresh token: only a new sign-in helps. Anything else (the
    // provider unreachable) keeps the connection for the next attempt.
    if (isOAuthError(error, "exchange:failed")) return drop("refresh_failed");
    throw error;
  }
  const sealed = seal(runtime, userId, provider, refreshed);
  const replaced = await replaceOAuthConnectionTokens({
    db,
    id: row.id,
    previousAccessTokenEnc: row.accessTokenEnc,
    tokens: sealed,
  });
  if (!replaced) {
    // Someone refreshed (or disconnected) at the same time; their result is the current one.
    return getUsableAccessToken({ ...options, now });
  }
  return { status: "ready", accessToken: refreshed.accessToken, accessTokenEnc: sealed.accessTokenEnc };
}

/** After the provider rejected the token (revoked): forget exactly that token. */
export async function forgetAccessToken(options: {
  db: DbClient;
  userId: string;
  provider: string;
  accessTokenEnc: string;
}): Promise<void> {
  await deleteOAuthConnection(options);
}
