import { describe, expect, it } from "vitest";
import { OUTCOME_LABEL, OUTCOMES, outcomeOf } from "./outcome";

describe("outcomes", () => {
  it("calls a positive answer approved for an approval and answered for any other kind", () => {
    expect(outcomeOf("approval", { ok: true })).toBe("approved");
    expect(outcomeOf("input", { ok: true })).toBe("answered");
    expect(outcomeOf("question", { ok: true })).toBe("answered");
    expect(outcomeOf("a_kind_of_a_program", { ok: true })).toBe("answered");
  });

  it("tells a decline from the system closing the request", () => {
    expect(outcomeOf("approval", { ok: false, reason: "declined" })).toBe("declined");
    expect(outcomeOf("input", { ok: false, reason: "declined" })).toBe("declined");
    expect(outcomeOf("approval", { ok: false, reason: "expired" })).toBe("expired");
    expect(outcomeOf("approval", { ok: false, reason: "cancelled" })).toBe("cancelled");
    expect(outcomeOf("approval", { ok: false, reason: null })).toBe("declined");
  });

  it("has one distinct word for each outcome", () => {
    const words = OUTCOMES.map((outcome) => OUTCOME_LABEL[outcome]);
    expect(new Set(words).size).toBe(OUTCOMES.length);
  });
});
