import { describe, expect, it } from "vitest";
import { formatAge } from "./format-age";

describe("formatAge", () => {
  it.each([
    [0, "just now"],
    [59_999, "just now"],
    [60_000, "1m ago"],
    [59 * 60_000, "59m ago"],
    [3 * 3_600_000 + 5, "3h ago"],
    [2 * 86_400_000, "2d ago"],
    [-5_000, "just now"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});
