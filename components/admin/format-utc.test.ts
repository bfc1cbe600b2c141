import { describe, expect, it } from "vitest";
import { formatUtc } from "./format-utc";

describe("formatUtc", () => {
  it("shows an ISO instant to the minute, in UTC", () => {
    expect(formatUtc("2026-11-30T01:50:07.123Z")).toBe("2026-11-30 01:50 UTC");
    expect(formatUtc(new Date(Date.UTC(2030, 0, 2, 3, 4, 59)).toISOString())).toBe("2030-01-02 03:04 UTC");
  });
});
