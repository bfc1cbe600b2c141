import { describe, expect, it } from "vitest";
import { measureAlternating } from "./measure-alternating";

describe("measureAlternating", () => {
  it("rotates who goes first every iteration and drops warm-up samples", async () => {
    const calls: string[] = [];
    const contender = (name: string) => ({ name, run: async () => void calls.push(name) });
    const samples = await measureAlternating({
      contenders: [contender("a"), contender("b"), contender("c")],
      iterations: 3,
      warmup: 1,
    });
    expect(calls.join("")).toBe("abc" + "bca" + "cab" + "abc");
    for (const name of ["a", "b", "c"]) {
      expect(samples.get(name)!.wallMs).toHaveLength(3);
      expect(samples.get(name)!.cpuMs).toHaveLength(3);
    }
  });

  it("stops at the first contender that reports a wrong outcome", async () => {
    const run = measureAlternating({
      contenders: [{ name: "broken", run: async () => Promise.reject(new Error("wrong answer")) }],
      iterations: 5,
      warmup: 0,
    });
    await expect(run).rejects.toThrow("wrong answer");
  });
});
