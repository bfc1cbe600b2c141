import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "./backoff";

describe("backoffDelayMs", () => {
  it("doubles per attempt, jitters within the policy's range and is capped", () => {
    const equal = { firstMs: 100, maxMs: 30_000, jitter: [0.5, 1] } as const;
    expect(backoffDelayMs(equal, 0, () => 0)).toBe(50);
    expect(backoffDelayMs(equal, 0, () => 1)).toBe(100);
    expect(backoffDelayMs(equal, 3, () => 0)).toBe(400);
    expect(backoffDelayMs(equal, 3, () => 1)).toBe(800);
    expect(backoffDelayMs({ ...equal, firstMs: 1000 }, 20, () => 1)).toBe(30_000);
  });

  it("waits the step exactly without jitter and treats a negative attempt as the first", () => {
    const exact = { firstMs: 500, maxMs: 10_000, jitter: [1, 1] } as const;
    expect([0, 1, 2, 5, 9].map((attempt) => backoffDelayMs(exact, attempt))).toEqual([
      500, 1000, 2000, 10_000, 10_000,
    ]);
    expect(backoffDelayMs(exact, -3)).toBe(500);
  });
});
