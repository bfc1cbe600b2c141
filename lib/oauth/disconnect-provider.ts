import type { DbClient } from "@/lib/db/db-types";
import { deleteOAuthConnection, getOAuthConnectionByUserProvider } from "@/lib/db/oauth-connections";
import { logger } from "@/lib/log/logger";
import { connectionTokenContext } from "./connection-tokens";
import { revokeToken } from "./oauth-client";
import type { OAuthRuntime } from "./oauth-runtime";
import { decryptionKeys } from "./secret-keys";
import { decryptToken } from "./token-crypto";

export type DisconnectOutcome =
  | { status: "disconnected"; revokedAtProvider: boolean }
  | { status: "not_connected" };

/**
 * Forgets the user's tokens for a provider, after asking the provider to revoke them where it
 * can. Revocation is best effort: the local tokens are deleted even if the provider is down.
 */
export async function disconnectProvider(options: {
  db: DbClient;
  runtime: OAuthRuntime;
  userId: string;
  provider: string;
}): Promise<DisconnectOutcome> {
  const { db, runtime, userId, provider } = options;
  const row = await getOAuthConnectionByUserProvider({ db, userId, provider });
  if (!row) return { status: "not_connected" };

  let revokedAtProvider = false;
  const config = runtime.registry.get(provider);
  if (config) {
    const keys = decryptionKeys(runtime.keys);
    try {
      // The refresh token first: revoking it ends the whole grant at most providers.
      if (row.refreshTokenEnc) {
        const refresh = decryptToken(
          row.refreshTokenEnc,
          keys,
          connectionTokenContext(userId, provider, "refresh"),
        );
        revokedAtProvider = await revokeToken({ provider: config, token: refresh });
      }
      const access = decryptToken(
        row.accessTokenEnc,
        keys,
        connectionTokenContext(userId, provider, "access"),
      );
      const accessRevoked = await revokeToken({ provider: config, token: access });
      revokedAtProvider ||= accessRevoked;
    } catch (error) {
      logger.warn({ err: error, provider }, "could not revoke the token at the provider");
    }
  }
  await deleteOAuthConnection({ db, userId, provider });
  return { status: "disconnected", revokedAtProvider };
}
