import { afterEach, describe, expect, it } from "vitest";
import { sizesFromEnv } from "./sizes";

describe("sizesFromEnv", () => {
  afterEach(() => {
    delete process.env.BENCH_TEST_SIZES;
  });

  it("takes the defaults when the variable is unset or blank", () => {
    expect(sizesFromEnv("BENCH_TEST_SIZES", [1, 2])).toEqual([1, 2]);
    process.env.BENCH_TEST_SIZES = "  ";
    expect(sizesFromEnv("BENCH_TEST_SIZES", [1, 2])).toEqual([1, 2]);
  });

  it("reads comma-separated whole numbers", () => {
    process.env.BENCH_TEST_SIZES = "0, 10,1000";
    expect(sizesFromEnv("BENCH_TEST_SIZES", [1])).toEqual([0, 10, 1000]);
  });

  it("refuses anything else, naming the variable", () => {
    for (const bad of ["10,x", "1.5", "-3", "10,,20"]) {
      process.env.BENCH_TEST_SIZES = bad;
      expect(() => sizesFromEnv("BENCH_TEST_SIZES", [1])).toThrow(/BENCH_TEST_SIZES must be/);
    }
  });
});
