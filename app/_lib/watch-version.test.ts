import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchVersion } from "./watch-version";

/** A `read` the test answers by hand, so it can see what is asked and when. */
function manualReads() {
  const pending: Array<(version: string) => void> = [];
  const failures: Array<(error: unknown) => void> = [];
  return {
    read: () =>
      new Promise<string>((resolve, reject) => {
        pending.push(resolve);
        failures.push(reject);
      }),
    get asked() {
      return pending.length;
    },
    async answer(version: string) {
      const next = pending.at(-1);
      if (!next) throw new Error("no read is waiting");
      next(version);
      await vi.advanceTimersByTimeAsync(0);
    },
    async fail(error: unknown) {
      failures.at(-1)?.(error);
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

function setup() {
  const reads = manualReads();
  const reported: Array<[string, boolean]> = [];
  const checked: string[] = [];
  const errors: unknown[] = [];
  const watch = watchVersion({
    read: reads.read,
    onVersion: (version, first) => reported.push([version, first]),
    onCheck: (version) => checked.push(version),
    onError: (error) => errors.push(error),
    coalesceMs: 500,
  });
  return { watch, reads, reported, checked, errors };
}

describe("watchVersion", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads and reports the version at once", async () => {
    const { reads, reported } = setup();
    expect(reads.asked).toBe(1);
    await reads.answer("v1");
    expect(reported).toEqual([["v1", true]]);
  });

  it("gathers a burst of pokes into one read at the end of the quiet period", async () => {
    const { watch, reads, reported } = setup();
    await reads.answer("v1");
    for (let i = 0; i < 40; i++) watch.poke();
    await vi.advanceTimersByTimeAsync(499);
    expect(reads.asked).toBe(1);
    watch.poke();
    await vi.advanceTimersByTimeAsync(1);
    expect(reads.asked).toBe(2);
    await reads.answer("v2");
    expect(reported).toEqual([
      ["v1", true],
      ["v2", false],
    ]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reads.asked).toBe(2);
  });

  it("reports only versions that differ from the last one reported", async () => {
    const { watch, reads, reported, checked } = setup();
    await reads.answer("v1");
    for (const version of ["v1", "v2", "v2", "v1"]) {
      watch.poke();
      await vi.advanceTimersByTimeAsync(500);
      await reads.answer(version);
    }
    expect(checked).toEqual(["v1", "v1", "v2", "v2", "v1"]);
    expect(reported).toEqual([
      ["v1", true],
      ["v2", false],
      ["v1", false],
    ]);
  });

  it("never reads twice at once, and reads again after a read that a poke overtook", async () => {
    const { watch, reads, reported } = setup();
    watch.poke();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads.asked).toBe(1);
    await reads.answer("v1");
    await vi.advanceTimersByTimeAsync(500);
    expect(reads.asked).toBe(2);
    await reads.answer("v2");
    expect(reported.map(([version]) => version)).toEqual(["v1", "v2"]);
  });

  it("leaves no timer behind and reports nothing once stopped", async () => {
    const { watch, reads, reported } = setup();
    await reads.answer("v1");
    watch.poke();
    expect(vi.getTimerCount()).toBe(1);
    watch.stop();
    expect(vi.getTimerCount()).toBe(0);
    watch.poke();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reads.asked).toBe(1);
    expect(reported).toEqual([["v1", true]]);
  });

  it("drops the answer of a read still under way when stopped", async () => {
    const { watch, reads, reported, checked } = setup();
    watch.stop();
    await reads.answer("v1");
    expect(reported).toEqual([]);
    expect(checked).toEqual([]);
  });

  it("stops and says so when a read fails", async () => {
    const { watch, reads, reported, errors } = setup();
    await reads.answer("v1");
    watch.poke();
    await vi.advanceTimersByTimeAsync(500);
    const failure = new Error("database unavailable");
    await reads.fail(failure);
    expect(errors).toEqual([failure]);
    watch.poke();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(reads.asked).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
    expect(reported).toEqual([["v1", true]]);
  });
});
