import { describe, expect, it } from "vitest";
import { resultWords } from "./result-words";

describe("resultWords", () => {
  it("reads a flat JSON object as one line per field, keeping the JSON for the details", () => {
    const words = resultWords(
      '{"Which environment?":"production","Notify the team":true,"Regions":["eu","us"],"Count":1200}',
    );
    expect(words).toEqual({
      kind: "fields",
      lines: ["Which environment?: production", "Notify the team: yes", "Regions: eu, us", "Count: 1,200"],
      json: expect.stringContaining('"Which environment?": "production"'),
    });
  });

  it("leaves words, arrays, nested objects and broken JSON as they are", () => {
    for (const output of ["deployed v1.4 to production", '["a"]', '{"a":{"b":1}}', "{not json", "{}"])
      expect(resultWords(output)).toEqual({ kind: "words", text: output });
  });
});
