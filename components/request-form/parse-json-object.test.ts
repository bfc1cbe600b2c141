import { describe, expect, it } from "vitest";
import { parseJsonObject } from "./parse-json-object";

describe("parseJsonObject", () => {
  it("accepts objects and treats an empty box as an empty object", () => {
    expect(parseJsonObject('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonObject("   ")).toEqual({ ok: true, value: {} });
  });

  it.each(["[1,2]", "null", "3", '"text"'])("refuses the non-object %s", (text) => {
    const parsed = parseJsonObject(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/must be a JSON object/);
  });

  it("explains malformed JSON", () => {
    const parsed = parseJsonObject("{a: 1}");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/^Not valid JSON/);
  });
});
