import { describe, expect, it } from "vitest";
import { parseCliOptions } from "./cli-options";

describe("parseCliOptions", () => {
  it("reads --only lists (comma-separated or repeated), counts and the output path", () => {
    expect(
      parseCliOptions([
        "--only",
        "loop-overhead,suspension",
        "--only=inbox",
        "--iterations",
        "50",
        "--warmup=0",
        "--out",
        "x.json",
      ]),
    ).toEqual({
      only: ["loop-overhead", "suspension", "inbox"],
      iterations: 50,
      warmup: 0,
      out: "x.json",
      list: false,
      smoke: false,
    });
  });

  it("defaults to every section and the gitignored results file", () => {
    expect(parseCliOptions([])).toMatchObject({
      only: undefined,
      iterations: undefined,
      out: "bench/results.json",
    });
  });

  it("rejects bad counts, missing values and unknown flags", () => {
    expect(() => parseCliOptions(["--iterations", "0"])).toThrow(/integer >= 1/);
    expect(() => parseCliOptions(["--warmup", "-1"])).toThrow(/integer >= 0/);
    expect(() => parseCliOptions(["--iterations", "2.5"])).toThrow(/integer/);
    expect(() => parseCliOptions(["--only"])).toThrow(/needs a value/);
    expect(() => parseCliOptions(["--fast"])).toThrow(/unknown option --fast/);
  });
});
