import type { DbClient } from "./db-types";

export interface OAuthConnectionRow {
  id: string;
  userId: string;
  provider: string;
  scopes: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a settings page may show: never the encrypted tokens. */
export type OAuthConnectionSummary = Pick<
  OAuthConnectionRow,
  "id" | "provider" | "scopes" | "createdAt" | "updatedAt"
>;

export interface EncryptedTokens {
  scopes: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  tokenExpiresAt: Date | null;
}

export async function upsertOAuthConnection({
  db,
  userId,
  provider,
  tokens,
}: {
  db: DbClient;
  userId: string;
  provider: string;
  tokens: EncryptedTokens;
}): Promise<OAuthConnectionRow> {
  return db.oAuthConnection.upsert({
    where: { userId_provider: { userId, provider } },
    create: { userId, provider, ...tokens },
    update: tokens,
  });
}

export async function getOAuthConnectionByUserProvider({
  db,
  userId,
  provider,
}: {
  db: DbClient;
  userId: string;
  provider: string;
}): Promise<OAuthConnectionRow | null> {
  return db.oAuthConnection.findUnique({ where: { userId_provider: { userId, provider } } });
}

export async function listOAuthConnectionsByUser({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<OAuthConnectionSummary[]> {
  return db.oAuthConnection.findMany({
    where: { userId },
    orderBy: { provider: "asc" },
    select: { id: true, provider: true, scopes: true, createdAt: true, updatedAt: true },
  });
}

/**
 * Replaces refreshed tokens only if the row still holds the access token we refreshed from;
 * when another process refreshed first, its tokens win and the caller should re-read.
 */
export async function replaceOAuthConnectionTokens({
  db,
  id,
  previousAccessTokenEnc,
  tokens,
}: {
  db: DbClient;
  id: string;
  previousAccessTokenEnc: string;
  tokens: EncryptedTokens;
}): Promise<boolean> {
  const result = await db.oAuthConnection.updateMany({
    where: { id, accessTokenEnc: previousAccessTokenEnc },
    data: tokens,
  });
  return result.count === 1;
}

/** `accessTokenEnc` narrows the delete to the token found bad, so a fresh reconnect survives. */
export async function deleteOAuthConnection({
  db,
  userId,
  provider,
  accessTokenEnc,
}: {
  db: DbClient;
  userId: string;
  provider: string;
  accessTokenEnc?: string;
}): Promise<number> {
  const result = await db.oAuthConnection.deleteMany({
    where: { userId, provider, ...(accessTokenEnc ? { accessTokenEnc } : {}) },
  });
  return result.count;
}
