import { describe, expect, it } from "vitest";
import { formatDecline, isNotDone } from "./format-decline";

describe("formatDecline", () => {
  it("tells the model the decline and the reviewer's reason in a sentence it can repeat", () => {
    expect(
      formatDecline(
        { prompt: "Approve a refund of $250.00 for order 4321?" },
        { reason: "declined", data: { reason: "duplicate claim" } },
      ),
    ).toBe(
      "It was declined, with the reason “duplicate claim”. The request was: Approve a refund of $250.00 for order 4321?",
    );
  });

  it("says what happened in words when there is no reviewer's reason", () => {
    expect(formatDecline({ prompt: "Sign in." }, { reason: "expired" })).toBe(
      "It expired before anyone answered. The request was: Sign in.",
    );
    expect(formatDecline({ prompt: "Sign in." }, { reason: "cancelled" })).toBe(
      "It was cancelled. The request was: Sign in.",
    );
    expect(formatDecline({ prompt: "Sign in." }, undefined)).toBe(
      "It was declined. The request was: Sign in.",
    );
  });

  it("recognises its own sentences as not done, and a plain result as done", () => {
    expect(isNotDone(formatDecline({ prompt: "Sign in." }, { reason: "expired" }))).toBe(true);
    expect(isNotDone("declined/expired: Sign in.")).toBe(true);
    expect(isNotDone("deployed v1.4 to production")).toBe(false);
  });
});
