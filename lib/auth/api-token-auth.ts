import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import { type ApiTokenScope, getApiTokenByHash, touchApiTokenById } from "@/lib/db/api-tokens";
import type { DbClient } from "@/lib/db/db-types";
import { isRole, type Role } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import type { SessionUser } from "./session-user";

// API tokens (ADR 0035). A token is 32 random bytes, so its SHA-256 is as good as a slow hash
// for storage and lets a call find its row by an index. It is only ever read from the
// Authorization header of /api/v1 calls: the web UI signs in through next-auth alone.

export const API_TOKEN_PREFIX = "tnx_";
export const API_SCOPES = [
  "requests:write",
  "requests:read",
  "requests:answer",
  "a2a",
] as const satisfies readonly ApiTokenScope[];

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new token and what is stored of it; the token itself is shown once and never again. */
export function mintApiToken(): { token: string; tokenHash: string; prefix: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, tokenHash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

export interface TokenCaller {
  actor: SessionUser;
  tokenId: string;
  scopes: ApiTokenScope[];
}

// A busy client would otherwise write its token's row on every call.
const TOUCH_EVERY_MS = 30_000;

function bearerOf(authorization: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

/**
 * The caller behind an `Authorization: Bearer` header, acting with their role as it is now: an
 * unknown, revoked or expired token is a 401, and only the token's holder learns which.
 */
export async function authenticateApiToken({
  db,
  authorization,
  now = new Date(),
}: {
  db: DbClient;
  authorization: string | null;
  now?: Date;
}): Promise<TokenCaller> {
  const token = bearerOf(authorization);
  if (!token?.startsWith(API_TOKEN_PREFIX) || token.length > 200) throw new AppError("unauthorized:token");
  // Looked up by its hash: what is compared is never the secret itself.
  const row = await getApiTokenByHash({ db, tokenHash: hashApiToken(token) });
  if (!row) throw new AppError("unauthorized:token");
  // Whoever sends a revoked or expired token holds its secret: saying which tells a guesser nothing.
  if (row.revokedAt !== null) {
    throw new AppError("unauthorized:token", { message: "This API token has been revoked; make a new one." });
  }
  if (row.expiresAt !== null && row.expiresAt <= now) {
    throw new AppError("unauthorized:token", { message: "This API token has expired; make a new one." });
  }
  if (!isRole(row.user.role)) throw new AppError("unauthorized:token");
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await touchApiTokenById({ db, id: row.id, at: now });
  }
  return {
    actor: { id: row.user.id, email: row.user.email, name: row.user.name, role: row.user.role as Role },
    tokenId: row.id,
    scopes: row.scopes.split(" ").filter(Boolean) as ApiTokenScope[],
  };
}

export function ensureScope(caller: TokenCaller, scope: ApiTokenScope): void {
  if (!caller.scopes.includes(scope)) {
    throw new AppError("forbidden:scope", { message: `This API token does not have the ${scope} scope.` });
  }
}

/** Calls per token per minute; TOOLNEXUS_API_RATE_LIMIT changes it (the browser tests lower it). */
export function apiRateLimit(): number {
  const configured = Number(process.env.TOOLNEXUS_API_RATE_LIMIT ?? "");
  return Number.isInteger(configured) && configured > 0 ? configured : 300;
}

/**
 * The most active (unrevoked, unexpired) tokens one person may hold; TOOLNEXUS_API_TOKEN_LIMIT
 * changes it. Each token has its own rate limit, so without this one person's calls would have
 * no ceiling.
 */
export function apiTokenLimit(env: Record<string, string | undefined> = process.env): number {
  const configured = Number(env.TOOLNEXUS_API_TOKEN_LIMIT ?? "");
  return Number.isInteger(configured) && configured > 0 ? configured : 20;
}

const limiters = new WeakMap<DbClient, Map<number, RateLimiterPrisma>>();

function limiterFor(db: DbClient, points: number): RateLimiterPrisma {
  let byPoints = limiters.get(db);
  if (!byPoints) {
    byPoints = new Map();
    limiters.set(db, byPoints);
  }
  let limiter = byPoints.get(points);
  if (!limiter) {
    // The sign-in throttle's table: one row per key, keys prefixed by what they count.
    limiter = new RateLimiterPrisma({
      storeClient: db,
      tableName: "loginThrottle",
      keyPrefix: "api-token",
      points,
      duration: 60,
    });
    byPoints.set(points, limiter);
  }
  return limiter;
}

/** Counts one call of the token; over the limit it is refused with how long to wait. */
export async function countApiCall({
  db,
  tokenId,
  points = apiRateLimit(),
}: {
  db: DbClient;
  tokenId: string;
  points?: number;
}): Promise<{ status: "allowed" } | { status: "throttled"; retryAfterSeconds: number }> {
  try {
    await limiterFor(db, points).consume(tokenId);
    return { status: "allowed" };
  } catch (error) {
    // Anything but a refusal is the store failing; serving calls unthrottled would be unsafe.
    if (!(error instanceof RateLimiterRes)) throw error;
    return { status: "throttled", retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
  }
}
