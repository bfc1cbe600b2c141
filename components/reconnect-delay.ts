import { type BackoffPolicy, backoffDelayMs } from "toolnexus/backoff";

// One policy for every stream the browser follows (a chat run, a live page's version): after a
// server restart all of them come back on the same schedule, spread out by the jitter.

/** 0.5 s, 1 s, 2 s, … up to 10 s, each spread by ±20 % so many viewers do not return at once. */
export const RECONNECT_BACKOFF: BackoffPolicy = { firstMs: 500, maxMs: 10_000, jitter: [0.8, 1.2] };

/** The wait before the next reconnect, after `failures` failed ones in a row. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  return backoffDelayMs(RECONNECT_BACKOFF, failures, random);
}
