import { describe, expect, it } from "vitest";
import {
  type AnswerSummary,
  addToSummary,
  BUCKET_RATIO,
  bucketEndMs,
  bucketOf,
  decodeBuckets,
  encodeBuckets,
  histogramPercentile,
  mergeSummary,
} from "./insight-histogram";
import { nearestRank } from "./insights";

const empty = (): AnswerSummary => ({
  day: "2030-01-09",
  tool: "t",
  group: "g",
  approved: 0,
  declined: 0,
  slowestMs: 0,
  buckets: new Map(),
});

describe("insight histograms", () => {
  it("puts a time in the bucket whose end is the first at or above it", () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(1000)).toBe(0);
    expect(bucketOf(1001)).toBe(1);
    expect(bucketOf(1030)).toBe(1);
    for (const bucket of [1, 17, 240, 500]) {
      expect(bucketOf(bucketEndMs(bucket))).toBe(bucket);
      expect(bucketOf(bucketEndMs(bucket) + 1)).toBe(bucket + 1);
    }
  });

  it("gives each percentile at or above the exact nearest rank, at most 3% above, never above the slowest", () => {
    // A fixed pseudo-random spread from under a second to two days.
    const times = Array.from({ length: 2000 }, (_, i) => Math.round(500 + ((i * 7_654_321) % 172_800_000)));
    const halves = [empty(), empty()];
    for (const [i, ms] of times.entries()) addToSummary(halves[i % 2] as AnswerSummary, ms, i % 3 !== 0);
    const merged = empty();
    for (const half of halves) mergeSummary(merged, half);
    const sorted = [...times].sort((a, b) => a - b);
    for (const p of [0.01, 0.5, 0.9, 0.99, 1]) {
      const exact = nearestRank(sorted, p);
      const read = histogramPercentile(merged, p);
      expect(read).toBeGreaterThanOrEqual(exact);
      expect(read).toBeLessThanOrEqual(Math.max(exact * BUCKET_RATIO, 1000));
      expect(read).toBeLessThanOrEqual(sorted.at(-1) as number);
    }
    expect(merged.approved + merged.declined).toBe(2000);
    expect(decodeBuckets(encodeBuckets(merged.buckets))).toEqual(merged.buckets);
  });

  it("refuses a stored histogram that is not [bucket, count, …]", () => {
    expect(() => decodeBuckets("[1, 2, 3]")).toThrow(/histogram/);
    expect(() => decodeBuckets('[1, "2"]')).toThrow(/bucket or count/);
  });
});
