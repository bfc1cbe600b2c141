import { describe, expect, it } from "vitest";
import { parseJsonObject } from "./parse-json-object";

describe("parseJsonObject", () => {
  it("accepts objects and treats an empty box as an empty object", () => {
    expect(parseJsonObject('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonObject("   ")).toEqual({ ok: true, value: {} });
  });

  it.each(["[1,2]", "null", "3", '"text"'])("refuses the non-object %s", (text) => {
    expect(parseJsonObject(text)).toEqual({
      ok: false,
      message: expect.stringMatching(/must be a JSON object/),
    });
  });

  it("explains malformed JSON", () => {
    expect(parseJsonObject("{a: 1}")).toEqual({
      ok: false,
      message: expect.stringMatching(/^Not valid JSON/),
    });
  });
});
