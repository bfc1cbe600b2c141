import { describe, expect, it } from "vitest";
import { createClientFromDriver } from "./client-from-driver";
import { isToolnexusError } from "./errors";
import { RUN_MODES, runIn } from "./testing/run-modes";
import type { ModelDriver, ModelInput, ModelTurn } from "./types";

/** A model that answers after `ms`, unless the call's signal aborts first. */
function slowDriver(ms: number): ModelDriver {
  const answer = (input: ModelInput) =>
    new Promise<ModelTurn>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          resolve({
            text: "late",
            toolCalls: [],
            usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
          }),
        ms,
      );
      input.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(input.signal!.reason);
      });
    });
  return {
    model: "slow",
    generate: answer,
    async *stream(input) {
      yield { type: "turn", turn: await answer(input) };
    },
  };
}

describe.each(RUN_MODES)("timeoutMs, the whole run's deadline (%s)", (mode) => {
  it("aborts a run that outlives it", async () => {
    const client = createClientFromDriver(slowDriver(2000), { timeoutMs: 50 });
    const started = Date.now();
    const error = await runIn(mode, client, "hi").catch((e: unknown) => e);
    expect(isToolnexusError(error, "aborted")).toBe(true);
    expect((error as Error).message).toMatch(/timeout/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("lets a run that ends in time finish", async () => {
    const client = createClientFromDriver(slowDriver(10), { timeoutMs: 2000 });
    expect((await runIn(mode, client, "hi")).result.text).toBe("late");
  });
});

it("refuses a deadline that is not a positive number of milliseconds", () => {
  for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31]) {
    expect(() => createClientFromDriver(slowDriver(1), { timeoutMs })).toThrowError(
      expect.objectContaining({ code: "config:invalid" }),
    );
  }
});
