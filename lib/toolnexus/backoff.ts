// The one backoff formula: provider retries and the browser's reconnects both wait by it, each
// with its own policy. No imports, so a client component can use it without the rest of the
// library.

export interface BackoffPolicy {
  /** The step before the first retry; it doubles per attempt. */
  firstMs: number;
  /** The step stops growing here. */
  maxMs: number;
  /**
   * The wait is the step times a factor drawn evenly from this range, so many clients that
   * failed together do not come back together. `[1, 1]` waits the step exactly.
   */
  jitter: readonly [low: number, high: number];
  /** Up to this many milliseconds more, drawn evenly, on top of the step. */
  addedJitterMs?: number;
}

/** The wait before retry number `attempt + 1`, after `attempt` failed retries (0 for the first). */
export function backoffDelayMs(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.max(0, attempt));
  const [low, high] = policy.jitter;
  const added = policy.addedJitterMs ? policy.addedJitterMs * random() : 0;
  return Math.round(step * (low + (high - low) * random()) + added);
}
