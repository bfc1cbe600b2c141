import { describe, expect, it } from "vitest";
import { pairedDifferences, summarize } from "./stats";

describe("summarize", () => {
  it("reports nearest-rank percentiles that are measured values", () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose
    expect(summarize(samples)).toEqual({ n: 100, p50: 50, p95: 95, mean: 50.5, min: 1 });
    expect(summarize([7])).toMatchObject({ n: 1, p50: 7, p95: 7 });
    expect(summarize([3, 1, 2])).toMatchObject({ p50: 2, p95: 3 });
  });

  it("is NaN, not zero, when nothing was measured", () => {
    expect(Number.isNaN(summarize([]).p50)).toBe(true);
  });
});

describe("pairedDifferences", () => {
  it("subtracts per iteration and stops at the shorter series", () => {
    expect(pairedDifferences([5, 7, 9], [1, 2])).toEqual([4, 5]);
  });
});
