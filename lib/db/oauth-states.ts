import type { DbClient } from "./db-types";

export interface OAuthStateRow {
  id: string;
  stateHash: string;
  requestRowId: string;
  userId: string;
  provider: string;
  codeVerifierEnc: string;
  redirectUri: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function createOAuthState({
  db,
  state,
}: {
  db: DbClient;
  state: Omit<OAuthStateRow, "id" | "usedAt">;
}): Promise<OAuthStateRow> {
  return db.oAuthState.create({ data: state });
}

export type ClaimOAuthStateResult =
  | { status: "claimed"; state: OAuthStateRow }
  | { status: "unknown" }
  | { status: "used" }
  | { status: "expired" };

/**
 * Marks a state as used if, and only if, it is still unused and unexpired — one conditional
 * update, so of two racing callbacks with the same state exactly one proceeds.
 */
export async function claimOAuthState({
  db,
  stateHash,
  now = new Date(),
}: {
  db: DbClient;
  stateHash: string;
  now?: Date;
}): Promise<ClaimOAuthStateResult> {
  const claimed = await db.oAuthState.updateMany({
    where: { stateHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  const row = await db.oAuthState.findUnique({ where: { stateHash } });
  if (claimed.count === 1 && row) return { status: "claimed", state: row };
  if (!row) return { status: "unknown" };
  if (row.usedAt) return { status: "used" };
  return { status: "expired" };
}

/** Housekeeping: states are useless after expiry, used or not. */
export async function deleteExpiredOAuthStates({
  db,
  expiredBefore,
}: {
  db: DbClient;
  expiredBefore: Date;
}): Promise<number> {
  const result = await db.oAuthState.deleteMany({ where: { expiresAt: { lt: expiredBefore } } });
  return result.count;
}
