import { describe, expect, it } from "vitest";
import { computeInsights, nearestRank, periodStart } from "./insights";

describe("nearestRank", () => {
  it("takes the smallest value with p of the values at or below it", () => {
    const seven = [1, 2, 3, 4, 5, 6, 7];
    expect(nearestRank(seven, 0.9)).toBe(7); // rank ⌈6.3⌉ = 7
    expect(nearestRank(seven, 0.5)).toBe(4);
    expect(nearestRank([8], 0.5)).toBe(8);
    expect(nearestRank([], 0.5)).toBeNaN();
  });
});

describe("computeInsights", () => {
  const now = new Date(Date.UTC(2030, 0, 10, 12));
  it("starts the period at midnight UTC and puts an open request at a bucket's edge in the older one", () => {
    expect(periodStart(now, 7).toISOString()).toBe("2030-01-04T00:00:00.000Z");
    const open = [
      { id: "r1", tool: "t", group: "*any", prompt: "p", askedAt: new Date(now.getTime() - 60 * 60_000) },
    ];
    const figures = computeInsights({ now, days: 7, answered: [], expiredAt: [], open });
    expect(figures.openByAge.map((row) => row.open)).toEqual([0, 1, 0, 0, 0]);
    expect(figures.escalationsPerDay.every((row) => row.escalated === 0)).toBe(true);
  });
});
