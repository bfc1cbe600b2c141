import { describe, expect, it } from "vitest";
import { isTypingTarget, shortcutFor } from "./shortcut-keys";

const body = { tagName: "BODY" };
const press = (key: string, target: Parameters<typeof shortcutFor>[0]["target"] = body, extra = {}) =>
  shortcutFor({ key, ctrlKey: false, metaKey: false, altKey: false, target, ...extra });

describe("shortcutFor", () => {
  it.each([
    ["j", "next"],
    ["k", "previous"],
    ["Enter", "open"],
    ["a", "approve"],
    ["d", "decline"],
    ["e", "edit"],
    ["x", "select"],
    ["A", "approve-selected"],
    ["/", "search"],
    ["?", "help"],
  ])("reads %s as %s outside fields", (key, shortcut) => {
    expect(press(key)).toBe(shortcut);
    expect(press(key, { tagName: "A" })).toBe(shortcut);
    expect(press(key, { tagName: "INPUT", type: "checkbox" })).toBe(shortcut);
  });

  it.each([
    ["a text field", { tagName: "INPUT", type: "text" }],
    ["a search box", { tagName: "INPUT", type: "search" }],
    ["an input with no type", { tagName: "input" }],
    ["a textarea", { tagName: "TEXTAREA" }],
    ["a select", { tagName: "SELECT" }],
    ["an editable element", { tagName: "DIV", isContentEditable: true }],
  ])("never fires while typing in %s", (_label, target) => {
    for (const key of ["j", "a", "d", "x", "/", "?"]) expect(press(key, target)).toBeNull();
  });

  it("leaves modified and repeated keys and other keys alone", () => {
    expect(press("d", body, { ctrlKey: true })).toBeNull();
    expect(press("a", body, { metaKey: true })).toBeNull();
    expect(press("j", body, { altKey: true })).toBeNull();
    expect(press("j", body, { repeat: true })).toBeNull();
    expect(press("q")).toBeNull();
    expect(press("J")).toBeNull();
  });
});

describe("isTypingTarget", () => {
  it("is false for nothing at all", () => {
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({})).toBe(false);
  });
});
