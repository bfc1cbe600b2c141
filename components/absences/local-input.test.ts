import { describe, expect, it } from "vitest";
import { localInputToIso, toLocalInputValue } from "./local-input";

describe("datetime-local values", () => {
  it("round-trips an instant through the viewer's zone, to the minute", () => {
    const at = new Date(Date.UTC(2026, 11, 9, 9, 30, 45));
    const value = toLocalInputValue(at);
    expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(localInputToIso(value)).toBe(new Date(Date.UTC(2026, 11, 9, 9, 30)).toISOString());
  });

  it("reads the wall-clock time in the local zone, and gives nothing for what is no time", () => {
    expect(localInputToIso("2026-12-09T09:00")).toBe(new Date(2026, 11, 9, 9, 0).toISOString());
    for (const bad of ["", "tomorrow", "2026-12-09", "2026-13-40T09:00", "2026-12-09T09:00Z"])
      expect(localInputToIso(bad)).toBe("");
  });
});
