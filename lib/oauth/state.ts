import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { OAuthError } from "./oauth-error";

/** What a `state` value vouches for: this authorization was started by `userId` for `requestRowId`. */
export interface StateClaims {
  requestRowId: string;
  userId: string;
  provider: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface IssuedState {
  state: string;
  /** Only this is stored, so a database leak cannot be replayed as callbacks. */
  stateHash: string;
  expiresAt: Date;
}

export const DEFAULT_STATE_TTL_MS = 10 * 60 * 1000;

function sign(payload: string, key: Buffer): Buffer {
  return createHmac("sha256", key).update(`toolnexus-oauth-state.${payload}`).digest();
}

export function hashState(state: string): string {
  return createHash("sha256").update(state, "utf8").digest("hex");
}

export function issueState(options: {
  requestRowId: string;
  userId: string;
  provider: string;
  key: Buffer;
  now?: number;
  ttlMs?: number;
}): IssuedState {
  const expiresAt = (options.now ?? Date.now()) + (options.ttlMs ?? DEFAULT_STATE_TTL_MS);
  const body = {
    r: options.requestRowId,
    u: options.userId,
    p: options.provider,
    e: expiresAt,
    // The nonce makes two authorizations for the same request distinct values.
    n: randomBytes(16).toString("base64url"),
  };
  const payload = Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
  const state = `${payload}.${sign(payload, options.key).toString("base64url")}`;
  return { state, stateHash: hashState(state), expiresAt: new Date(expiresAt) };
}

/**
 * Checks signature and expiry only. Single use is the store's job: the caller must still
 * consume the state's hash atomically before acting on it.
 */
export function verifyState(state: string, key: Buffer, now: number = Date.now()): StateClaims {
  const dot = state.indexOf(".");
  if (dot <= 0 || dot !== state.lastIndexOf(".")) {
    throw new OAuthError("state:malformed", "The sign-in link is malformed");
  }
  const payload = state.slice(0, dot);
  const given = Buffer.from(state.slice(dot + 1), "base64url");
  const expected = sign(payload, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new OAuthError("state:tampered", "The sign-in link was altered or was not issued by this app");
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw new OAuthError("state:malformed", "The sign-in link is malformed");
  }
  const claims = body as Record<string, unknown>;
  if (
    typeof claims.r !== "string" ||
    typeof claims.u !== "string" ||
    typeof claims.p !== "string" ||
    typeof claims.e !== "number"
  ) {
    throw new OAuthError("state:malformed", "The sign-in link is malformed");
  }
  if (claims.e <= now) throw new OAuthError("state:expired", "The sign-in link has expired; start again");
  return { requestRowId: claims.r, userId: claims.u, provider: claims.p, expiresAt: claims.e };
}
