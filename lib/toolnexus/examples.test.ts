import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const examples = readdirSync(path.join(root, "examples"))
  .filter((name) => /\.(mts|ts|mjs|js)$/.test(name))
  .sort();

// The examples are the published API as users write it: each must run as-is with tsx.
describe("examples/", () => {
  it("holds the examples of pending and waitFor", () => {
    expect(examples).toEqual(
      expect.arrayContaining([
        "pending-request-shape.mts",
        "pending-retry-with-answer.mts",
        "pending-durable-halt.mts",
        "wait-for-sign-in.mts",
        "wait-for-answer-data.mts",
        "wait-for-re-suspension.mts",
      ]),
    );
  });

  it.each(examples)("%s runs with tsx and prints its ok line", async (name) => {
    const { stdout } = await run(path.join(root, "node_modules/.bin/tsx"), [path.join("examples", name)], {
      cwd: root,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^ok: /m);
  });
});
