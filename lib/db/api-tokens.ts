import "server-only";
import { recordAuditEntry } from "./audit";
import type { DbClient, DbTx } from "./db-types";
import { newestFirstPage } from "./newest-first-page";
import { lockUntilTransactionEnds } from "./sql/advisory-lock";
import { engineTransaction } from "./sql/transaction-options";

// Personal API tokens (ADR 0035). Only a token's SHA-256 is stored, so what this module reads
// back can never be used to call the API: the token itself exists once, in the creator's hands.

export type ApiTokenScope = "requests:write" | "requests:read" | "requests:answer" | "a2a";

/** A token as its owner and admins see it: never the token, only its first characters. */
export interface ApiTokenRow {
  id: string;
  userId: string;
  ownerName: string | null;
  name: string;
  prefix: string;
  scopes: ApiTokenScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const SELECT = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { name: true, email: true } },
} as const;

type Row = {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  user: { name: string | null; email: string | null };
};

function toTokenRow(row: Row): ApiTokenRow {
  return {
    id: row.id,
    userId: row.userId,
    ownerName: row.user.name ?? row.user.email,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.split(" ").filter(Boolean) as ApiTokenScope[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Tokens that still work: neither revoked nor expired at `now`. */
export async function countActiveApiTokensByUser({
  db,
  userId,
  now,
}: {
  db: DbClient | DbTx;
  userId: string;
  now: Date;
}): Promise<number> {
  return db.apiToken.count({
    where: { userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
  });
}

/** Thrown inside the transaction only to roll it back. */
class TokenLimitRollback extends Error {}

/**
 * Makes a token unless its person would then hold more than `limit` active ones: the `limit`
 * reached outcome writes nothing. The new row is written first and the count taken after it,
 * rolled back when over, and that is only sound if two creates for one person see each other:
 * SQLite orders them by itself (the insert holds the single write lock until commit), and on
 * PostgreSQL each create first takes a transaction-scoped advisory lock on its person, so the
 * count (read committed) sees every token committed before it.
 */
export async function createApiToken({
  db,
  userId,
  name,
  tokenHash,
  prefix,
  scopes,
  expiresAt,
  limit,
  now = new Date(),
}: {
  db: DbClient;
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  scopes: ApiTokenScope[];
  expiresAt: Date | null;
  /** The most active tokens one person may hold. */
  limit: number;
  now?: Date;
}): Promise<{ status: "created"; row: ApiTokenRow } | { status: "limit" }> {
  try {
    return await db.$transaction(async (tx) => {
      await lockUntilTransactionEnds(tx, `api-tokens:${userId}`);
      const row = await tx.apiToken.create({
        data: { userId, name, tokenHash, prefix, scopes: scopes.join(" "), expiresAt },
        select: SELECT,
      });
      if ((await countActiveApiTokensByUser({ db: tx, userId, now })) > limit) throw new TokenLimitRollback();
      await recordAuditEntry({
        tx,
        actorId: userId,
        action: "api_token.created",
        targetType: "api_token",
        targetId: row.id,
        detail: { name, scopes, expiresAt: expiresAt?.toISOString() ?? null },
      });
      return { status: "created" as const, row: toTokenRow(row) };
    }, engineTransaction);
  } catch (error) {
    if (error instanceof TokenLimitRollback) return { status: "limit" };
    throw error;
  }
}

export async function listApiTokensByUser({ db, userId }: { db: DbClient; userId: string }) {
  const rows = await db.apiToken.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
    select: SELECT,
  });
  return rows.map(toTokenRow);
}

/** Every user's tokens, newest first, for the admins' page; revoked ones only on request. */
export async function listApiTokensPage({
  db,
  includeRevoked,
  page,
  pageSize,
}: {
  db: DbClient;
  includeRevoked: boolean;
  page: number;
  pageSize: number;
}): Promise<{ rows: ApiTokenRow[]; total: number }> {
  const where = includeRevoked ? {} : { revokedAt: null };
  const [rows, total] = await Promise.all([
    db.apiToken.findMany({
      where,
      ...newestFirstPage(page, pageSize),
      select: SELECT,
    }),
    db.apiToken.count({ where }),
  ]);
  return { rows: rows.map(toTokenRow), total };
}

export async function getApiTokenById({ db, id }: { db: DbClient; id: string }) {
  const row = await db.apiToken.findUnique({ where: { id }, select: SELECT });
  return row ? toTokenRow(row) : null;
}

/** What authenticating a call needs, by the hash of the token it presented. */
export async function getApiTokenByHash({ db, tokenHash }: { db: DbClient; tokenHash: string }) {
  return db.apiToken.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      scopes: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, email: true, name: true, role: true } },
    },
  });
}

/** Records a use; callers throttle how often, since every call of a busy client would write. */
export async function touchApiTokenById({ db, id, at }: { db: DbClient; id: string; at: Date }) {
  await db.apiToken.updateMany({ where: { id }, data: { lastUsedAt: at } });
}

/**
 * Revokes once: the conditional update is the decision, and the grants' end and the audit entry
 * ride with it. False when the token was revoked already.
 */
export async function revokeApiTokenById({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const now = new Date();
    const revoked = await tx.apiToken.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: now, revokedById: actorId },
    });
    if (revoked.count !== 1) return false;
    // Its "always allow" grants end with it: nothing can use them, and none may outlive it.
    await tx.apiTokenToolGrant.deleteMany({ where: { tokenId: id } });
    await recordAuditEntry({
      tx,
      actorId,
      action: "api_token.revoked",
      targetType: "api_token",
      targetId: id,
    });
    return true;
  });
}
