import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { DbClient } from "@/lib/db/db-types";

/**
 * How many of one person's requests are mailed at once per hour (ADR 0059): each request whose
 * mail would go out at once takes one from its asker's allowance; once it is used up, the
 * request's mail waits for its recipients' digest instead. The count lives in the database (the
 * sign-in throttle's table, under its own key prefix), incremented in one statement, so every
 * instance and every restart count the same requests.
 */
export interface MailAllowance {
  /** True when `askerId` may still have a request mailed at once this hour; counts it then. */
  take(askerId: string): Promise<boolean>;
}

const limiters = new WeakMap<DbClient, Map<number, RateLimiterPrisma>>();

function limiterFor(db: DbClient, perHour: number): RateLimiterPrisma {
  let byLimit = limiters.get(db);
  if (!byLimit) {
    byLimit = new Map();
    limiters.set(db, byLimit);
  }
  let limiter = byLimit.get(perHour);
  if (!limiter) {
    limiter = new RateLimiterPrisma({
      storeClient: db,
      tableName: "loginThrottle",
      keyPrefix: "mail-asker",
      points: perHour,
      duration: 3600,
    });
    byLimit.set(perHour, limiter);
  }
  return limiter;
}

export function createMailAllowance({ db, perHour }: { db: DbClient; perHour: number }): MailAllowance {
  return {
    async take(askerId) {
      if (perHour === 0) return false;
      try {
        await limiterFor(db, perHour).consume(askerId);
        return true;
      } catch (error) {
        // Anything but a refusal is the store failing: the pass fails and the notice is tried
        // again once its lease lapses, rather than mailed past the limit.
        if (!(error instanceof RateLimiterRes)) throw error;
        return false;
      }
    },
  };
}
