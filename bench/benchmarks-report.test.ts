import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/benchmarks.md is a report of today's figures, not a notebook of every run: its history is
// in git. These bounds keep it one a reader gets through.
const report = readFileSync(path.resolve(import.meta.dirname, "../docs/benchmarks.md"), "utf8");

describe("docs/benchmarks.md", () => {
  it("stays at 300 lines or fewer", () => {
    expect(report.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("has no table cell over about 200 characters", () => {
    const cells = report
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .flatMap((line) => line.split("|").map((cell) => cell.trim()));
    expect(cells.filter((cell) => cell.length > 210)).toEqual([]);
  });
});
