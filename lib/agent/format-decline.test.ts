import { describe, expect, it } from "vitest";
import { formatDecline } from "./format-decline";

describe("formatDecline", () => {
  it("carries the reviewer's reason to the model", () => {
    expect(
      formatDecline(
        { prompt: "Approve a refund." },
        { reason: "declined", data: { reason: "duplicate claim" } },
      ),
    ).toBe("declined: Approve a refund. Reason: duplicate claim");
  });

  it("names the system's reason when there is no reviewer's one", () => {
    expect(formatDecline({ prompt: "Sign in." }, { reason: "expired" })).toBe("expired: Sign in.");
    expect(formatDecline({ prompt: "Sign in." }, undefined)).toBe("declined: Sign in.");
  });
});
