// Times to answer kept as counts per log-spaced bucket (ADR 0099), so the answers of closed days
// are summarised once and percentiles still combine across days, tools and groups: merging two
// histograms is adding their counts, which a list of percentiles could not do.

/** Each bucket ends this many times above the previous one: a percentile is at most 3% high. */
export const BUCKET_RATIO = 1.03;
/** Bucket 0 holds every time up to one second; bucket i ends at FIRST_BUCKET_MS · RATIO^i. */
const FIRST_BUCKET_MS = 1000;
const LOG_RATIO = Math.log(BUCKET_RATIO);

/** The bucket a time to answer falls in: (end of bucket i − 1, end of bucket i]. */
export function bucketOf(ms: number): number {
  if (ms <= FIRST_BUCKET_MS) return 0;
  const index = Math.ceil(Math.log(ms / FIRST_BUCKET_MS) / LOG_RATIO);
  // Floating point may land one off at an exact bucket end; the bounds decide.
  if (bucketEndMs(index - 1) >= ms) return index - 1;
  return bucketEndMs(index) < ms ? index + 1 : index;
}

export function bucketEndMs(bucket: number): number {
  return FIRST_BUCKET_MS * BUCKET_RATIO ** bucket;
}

/** Answers of one day, tool and group: counts, the slowest, and the histogram of times. */
export interface AnswerSummary {
  day: string;
  tool: string;
  group: string;
  approved: number;
  declined: number;
  slowestMs: number;
  buckets: Map<number, number>;
}

export function addToSummary(summary: AnswerSummary, ms: number, ok: boolean): void {
  if (ok) summary.approved += 1;
  else summary.declined += 1;
  summary.slowestMs = Math.max(summary.slowestMs, ms);
  const bucket = bucketOf(ms);
  summary.buckets.set(bucket, (summary.buckets.get(bucket) ?? 0) + 1);
}

/** Adds `from` into `into` (same day and series, or a total across them). */
export function mergeSummary(into: AnswerSummary, from: AnswerSummary): void {
  into.approved += from.approved;
  into.declined += from.declined;
  into.slowestMs = Math.max(into.slowestMs, from.slowestMs);
  for (const [bucket, count] of from.buckets)
    into.buckets.set(bucket, (into.buckets.get(bucket) ?? 0) + count);
}

/**
 * The nearest-rank percentile read from a histogram: the end of the bucket holding the answer
 * of rank ⌈p·n⌉, but never above the slowest answer. So it is never below the exact
 * nearest-rank value and at most BUCKET_RATIO − 1 (3%) above it, or one second for times under
 * a second.
 */
export function histogramPercentile(summary: AnswerSummary, p: number): number {
  const total = summary.approved + summary.declined;
  if (total === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const bucket of [...summary.buckets.keys()].sort((a, b) => a - b)) {
    seen += summary.buckets.get(bucket) ?? 0;
    if (seen >= rank) return Math.min(bucketEndMs(bucket), summary.slowestMs);
  }
  return summary.slowestMs;
}

/** Storage's form of the buckets: JSON [bucket, count, …], buckets ascending. */
export function encodeBuckets(buckets: Map<number, number>): string {
  return JSON.stringify([...buckets.entries()].sort((a, b) => a[0] - b[0]).flat());
}

export function decodeBuckets(text: string): Map<number, number> {
  const flat = JSON.parse(text) as unknown;
  if (!Array.isArray(flat) || flat.length % 2 !== 0) throw new Error("histogram: not [bucket, count, …]");
  const buckets = new Map<number, number>();
  for (let i = 0; i < flat.length; i += 2) {
    const [bucket, count] = [flat[i], flat[i + 1]];
    if (!Number.isInteger(bucket) || !Number.isInteger(count)) throw new Error("histogram: bucket or count");
    buckets.set(bucket as number, count as number);
  }
  return buckets;
}
