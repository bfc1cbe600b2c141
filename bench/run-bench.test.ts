import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatResults } from "./format-results";
import { type BenchResults, runBench } from "./run-bench";
import { sections } from "./sections";

// A smoke run (one iteration, no warm-up) so the harness cannot rot. It asserts that every section
// ran and produced figures, never what the figures are.

const dir = await mkdtemp(path.join(os.tmpdir(), "toolnexus-bench-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("npm run bench, smoke run", () => {
  it("runs every section once and writes the results file it reports", async () => {
    const out = path.join(dir, "results.json");
    const results = await runBench({ sections, smoke: true, out });

    expect(results.iterations).toBe(1);
    expect(results.sections.map((s) => s.name)).toEqual(sections.map((s) => s.name));
    for (const section of results.sections) {
      expect(section.status === "failed" ? section.error : "").toBe("");
      if (section.status !== "done") continue;
      expect(section.rows.length).toBeGreaterThan(0);
      for (const row of section.rows) expect(Number.isFinite(row.p50), row.label).toBe(true);
    }
    const loop = results.sections.find((s) => s.name === "loop-overhead");
    expect(loop?.status === "done" && loop.comparisons.some((c) => c.targetMax === 0.7)).toBe(true);

    const written = JSON.parse(await readFile(out, "utf8")) as BenchResults;
    expect(written.sections.map((s) => s.status)).toEqual(results.sections.map((s) => s.status));
    const table = formatResults(results);
    for (const section of sections) expect(table).toContain(section.title);
  }, 900_000);

  it("runs only the named sections and refuses unknown names", async () => {
    const out = path.join(dir, "only.json");
    const results = await runBench({ sections, smoke: true, only: ["suspension"], out });
    expect(results.sections.map((s) => s.name)).toEqual(["suspension"]);
    await expect(runBench({ sections, smoke: true, only: ["no-such-section"], out })).rejects.toThrow(
      /unknown section\(s\): no-such-section/,
    );
  }, 60_000);
});
