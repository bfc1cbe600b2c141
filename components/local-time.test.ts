import { describe, expect, it } from "vitest";
import { formatLocalTime, isoFallback } from "./local-time";

describe("local time", () => {
  const moment = "2026-12-07T02:07:00.000Z";

  it("says the moment in the viewer's zone and locale, not UTC's", () => {
    expect(formatLocalTime(moment, "en-GB", "Europe/Berlin")).toBe("7 Dec 2026, 03:07");
    expect(formatLocalTime(moment, "en-US", "America/New_York")).toMatch(/^Dec 6, 2026, 9:07\sPM$/);
  });

  it("falls back to an ISO moment that names its zone", () => {
    expect(isoFallback(moment)).toBe("2026-12-07 02:07 UTC");
  });
});
