import "server-only";
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { DbClient } from "@/lib/db/db-types";
import { normaliseEmail } from "@/lib/db/users";

/**
 * Password guessing is limited twice: per account (whoever tries) and per client address
 * (whichever accounts it tries). Both counters live in the database, so every instance counts
 * the same attempts. Attempts are counted before the password is checked, which makes a burst
 * of parallel guesses count too; a correct password gives its points back.
 */
export const ACCOUNT_LIMIT = { points: 5, durationSeconds: 15 * 60 } as const;
export const ADDRESS_LIMIT = { points: 30, durationSeconds: 15 * 60 } as const;

interface Limiters {
  account: RateLimiterPrisma;
  address: RateLimiterPrisma;
}

const limitersByDb = new WeakMap<DbClient, Limiters>();

function limitersFor(db: DbClient): Limiters {
  let limiters = limitersByDb.get(db);
  if (!limiters) {
    const make = (keyPrefix: string, limit: { points: number; durationSeconds: number }) =>
      new RateLimiterPrisma({
        storeClient: db,
        tableName: "loginThrottle",
        keyPrefix,
        points: limit.points,
        duration: limit.durationSeconds,
      });
    limiters = { account: make("account", ACCOUNT_LIMIT), address: make("address", ADDRESS_LIMIT) };
    limitersByDb.set(db, limiters);
  }
  return limiters;
}

export type ThrottleDecision = { status: "allowed" } | { status: "throttled"; retryAfterSeconds: number };

/** Counts one attempt for the account and the address; refuses it when either is over its limit. */
export async function countSignInAttempt({
  db,
  email,
  address,
}: {
  db: DbClient;
  email: string;
  address: string;
}): Promise<ThrottleDecision> {
  const { account, address: byAddress } = limitersFor(db);
  const outcomes = await Promise.allSettled([
    account.consume(normaliseEmail(email)),
    byAddress.consume(address),
  ]);
  let waitMs = 0;
  for (const outcome of outcomes) {
    if (outcome.status === "fulfilled") continue;
    // Over the limit is a RateLimiterRes; anything else is a storage failure, and signing in
    // without the throttle would be the unsafe way to fail.
    if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
    waitMs = Math.max(waitMs, outcome.reason.msBeforeNext);
  }
  return waitMs > 0
    ? { status: "throttled", retryAfterSeconds: Math.ceil(waitMs / 1000) }
    : { status: "allowed" };
}

/** A correct password: the account starts afresh and the address gets this attempt back. */
export async function clearSignInAttempts({
  db,
  email,
  address,
}: {
  db: DbClient;
  email: string;
  address: string;
}): Promise<void> {
  const { account, address: byAddress } = limitersFor(db);
  await Promise.all([account.delete(normaliseEmail(email)), byAddress.reward(address, 1)]);
}

/** "Try again in 3 minutes." for the sign-in form, rounded up so it is never too early. */
export function describeRetryAfter(seconds: number): string {
  if (seconds < 60)
    return `Too many sign-in attempts. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
