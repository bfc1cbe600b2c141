import { describe, expect, it } from "vitest";
import { formatTimeLeft } from "./format-time-left";

describe("formatTimeLeft", () => {
  it.each([
    [0, "expired"],
    [-5_000, "expired"],
    [999, "0s left"],
    [45_000, "45s left"],
    [125_000, "2m 5s left"],
    [2 * 3_600_000 + 5 * 60_000 + 30_000, "2h 5m left"],
    [26 * 3_600_000, "1d 2h left"],
  ])("%d ms → %s", (ms, text) => {
    expect(formatTimeLeft(ms)).toBe(text);
  });
});
