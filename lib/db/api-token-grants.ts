import "server-only";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";

// "Always allow <tool> for this token" (ADR 0065): an approver's grant on an MCP permission
// prompt. A revoked token's grants are deleted with its revocation (api-tokens.ts), and a grant
// only ever names the token whose request was approved, never one sent from a browser.

export interface ApiTokenToolGrant {
  tokenId: string;
  toolName: string;
  grantedById: string;
  createdAt: Date;
}

/** The grants of the person's tokens that still work, oldest first. */
export async function listApiTokenToolGrantsByUser({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<ApiTokenToolGrant[]> {
  return db.apiTokenToolGrant.findMany({
    where: { token: { userId, revokedAt: null } },
    select: { tokenId: true, toolName: true, grantedById: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { toolName: "asc" }],
  });
}

export async function hasApiTokenToolGrant({
  db,
  tokenId,
  toolName,
}: {
  db: DbClient;
  tokenId: string;
  toolName: string;
}): Promise<boolean> {
  const row = await db.apiTokenToolGrant.findFirst({
    where: { tokenId, toolName, token: { revokedAt: null } },
    select: { toolName: true },
  });
  return row !== null;
}

/**
 * The caller has checked that `actorId` approved a request the token made. Returns whether it
 * was newly granted; a revoked token is granted nothing.
 */
export async function createApiTokenToolGrant({
  db,
  tokenId,
  toolName,
  actorId,
  requestId,
}: {
  db: DbClient;
  tokenId: string;
  toolName: string;
  actorId: string;
  /** The approved request the grant was ticked on, for the audit. */
  requestId: string;
}): Promise<boolean> {
  if (await hasApiTokenToolGrant({ db, tokenId, toolName })) return false;
  try {
    return await db.$transaction(async (tx) => {
      const live = await tx.apiToken.count({ where: { id: tokenId, revokedAt: null } });
      if (live !== 1) return false;
      await tx.apiTokenToolGrant.create({ data: { tokenId, toolName, grantedById: actorId } });
      await recordAuditEntry({
        tx,
        actorId,
        action: "api_token.tool_allowed",
        targetType: "api_token",
        targetId: tokenId,
        detail: { tool: toolName, requestId },
      });
      return true;
    }, engineTransaction);
  } catch (error) {
    // Granted at the same moment by the answer to another prompt for the same tool.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** A prompt allowed by a grant asks nobody, so the audit is where it shows. */
export async function recordAllowedByGrant({
  db,
  tokenId,
  toolName,
  ownerId,
  toolUseId,
}: {
  db: DbClient;
  tokenId: string;
  toolName: string;
  ownerId: string;
  toolUseId: string | undefined;
}): Promise<void> {
  await db.$transaction(async (tx) => {
    await recordAuditEntry({
      tx,
      actorId: ownerId,
      action: "api_token.tool_allowed_by_grant",
      targetType: "api_token",
      targetId: tokenId,
      detail: { tool: toolName, ...(toolUseId ? { toolUseId } : {}) },
    });
  }, engineTransaction);
}

/**
 * Takes a grant back, if the token is `userId`'s: another person's token has no grants for
 * them. Returns whether there was one to revoke.
 */
export async function deleteApiTokenToolGrant({
  db,
  tokenId,
  toolName,
  userId,
}: {
  db: DbClient;
  tokenId: string;
  toolName: string;
  userId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.apiTokenToolGrant.deleteMany({
      where: { tokenId, toolName, token: { userId } },
    });
    if (count === 0) return false;
    await recordAuditEntry({
      tx,
      actorId: userId,
      action: "api_token.tool_allowance_revoked",
      targetType: "api_token",
      targetId: tokenId,
      detail: { tool: toolName },
    });
    return true;
  }, engineTransaction);
}

/**
 * The latest revocation of the token's grant for `toolName` made after `since`, if any: an
 * approval that ticked "always allow" before it no longer stands for the grant (ADR 0072).
 */
export async function findToolGrantRevokedSince({
  db,
  tokenId,
  toolName,
  since,
}: {
  db: DbClient;
  tokenId: string;
  toolName: string;
  since: Date;
}): Promise<{ id: string } | undefined> {
  // The tool is in the entry's detail; JSON filters differ between the databases, so the token's
  // few revocations since then are read and matched here.
  const revocations = await db.auditLog.findMany({
    where: {
      action: "api_token.tool_allowance_revoked",
      targetType: "api_token",
      targetId: tokenId,
      createdAt: { gt: since },
    },
    select: { id: true, detail: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  const match = revocations.find((entry) => (entry.detail as { tool?: unknown } | null)?.tool === toolName);
  return match ? { id: match.id } : undefined;
}
