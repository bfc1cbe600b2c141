import { describe, expect, it } from "vitest";
import { isToolnexusError, ToolnexusError } from "../../errors";
import { collectAll } from "../../testing/collect-all";
import type { Message, ModelInput } from "../../types";
import { createInProcessDriver, type InProcessPart } from "./in-process-driver";

const ask = (messages: Message[] = [{ role: "user", content: "hi" }]): ModelInput => ({
  model: "demo",
  messages,
  tools: [],
});

describe("createInProcessDriver", () => {
  it("fills ids from the turn position, zero usage and a finish reason", async () => {
    const seen: ModelInput[] = [];
    const driver = createInProcessDriver({
      model: "demo",
      generate: async (input) => {
        seen.push(input);
        return { toolCalls: [{ name: "a" }, { id: "own", name: "b", args: { x: 1 } }, { name: "c" }] };
      },
    });
    expect(driver.model).toBe("demo");
    const turn = await driver.generate(ask());
    expect(turn).toEqual({
      text: "",
      toolCalls: [
        { id: "call-1-1", name: "a", args: {} },
        { id: "own", name: "b", args: { x: 1 } },
        { id: "call-1-3", name: "c", args: {} },
      ],
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      finishReason: "tool-calls",
    });
    expect(seen[0]!.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("derives the turn number from the transcript, so a resumed run keeps unique, repeatable ids", async () => {
    const driver = createInProcessDriver({ model: "demo", generate: () => ({ toolCalls: [{ name: "a" }] }) });
    const later: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "", toolCalls: [{ id: "call-1-1", name: "a", args: {} }] },
      { role: "tool", toolCallId: "call-1-1", name: "a", content: "ok", isError: false },
    ];
    expect((await driver.generate(ask(later))).toolCalls[0]!.id).toBe("call-2-1");
    expect((await driver.generate(ask(later))).toolCalls[0]!.id).toBe("call-2-1");
  });

  it("completes partial usage and keeps an explicit total", async () => {
    const driver = createInProcessDriver({
      model: "demo",
      generate: ({ messages }) =>
        messages.length === 1
          ? { text: "a", usage: { promptTokens: 4, completionTokens: 2 } }
          : { text: "b", usage: { totalTokens: 9 } },
    });
    expect((await driver.generate(ask())).usage).toEqual({
      promptTokens: 4,
      completionTokens: 2,
      totalTokens: 6,
    });
    const two: Message[] = [
      { role: "user", content: "1" },
      { role: "user", content: "2" },
    ];
    expect((await driver.generate(ask(two))).usage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 9,
    });
  });

  it("marks arguments that are not an object as invalid instead of passing them to a tool", async () => {
    const driver = createInProcessDriver({
      model: "demo",
      generate: () => ({ toolCalls: [{ name: "a", args: ["x"] as never }] }),
    });
    expect((await driver.generate(ask())).toolCalls).toEqual([
      { id: "call-1-1", name: "a", args: {}, invalidArgs: '["x"]' },
    ]);
  });

  it("streams a plain reply as one text delta followed by the turn", async () => {
    const driver = createInProcessDriver({ model: "demo", generate: () => ({ text: "Hello there" }) });
    expect(await collectAll(driver.stream(ask()))).toEqual([
      { type: "text", delta: "Hello there" },
      {
        type: "turn",
        turn: {
          text: "Hello there",
          toolCalls: [],
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
          finishReason: "stop",
        },
      },
    ]);
  });

  it("passes an async iterable's deltas through and folds its parts into the turn", async () => {
    async function* parts(): AsyncGenerator<InProcessPart> {
      yield { type: "text", delta: "Let " };
      yield { type: "text", delta: "me check" };
      yield { type: "tool_call", name: "weather", args: { city: "Oslo" } };
      yield { type: "tool_call", id: "mine", name: "weather", args: { city: "Lima" } };
      yield { type: "usage", usage: { promptTokens: 3, completionTokens: 5 } };
    }
    const driver = createInProcessDriver({ model: "demo", generate: () => parts() });
    const streamed = await collectAll(driver.stream(ask()));
    expect(streamed).toEqual([
      { type: "text", delta: "Let " },
      { type: "text", delta: "me check" },
      {
        type: "turn",
        turn: {
          text: "Let me check",
          toolCalls: [
            { id: "call-1-1", name: "weather", args: { city: "Oslo" } },
            { id: "mine", name: "weather", args: { city: "Lima" } },
          ],
          usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 },
          finishReason: "tool-calls",
        },
      },
    ]);
    // generate() folds the same parts, also from an async function that resolves to an iterable.
    const viaPromise = createInProcessDriver({ model: "demo", generate: async () => parts() });
    expect(await viaPromise.generate(ask())).toEqual((streamed[2] as { turn: unknown }).turn);
  });

  it("rejects malformed replies and unknown parts with a typed error", async () => {
    const bad = [
      () => ({ text: 42 }) as never,
      () => ({ toolCalls: [{ args: {} }] }) as never,
      () => null as never,
      async function* () {
        yield { type: "image", url: "x" } as never;
      },
    ];
    for (const generate of bad) {
      const error = await createInProcessDriver({ model: "demo", generate })
        .generate(ask())
        .catch((e: unknown) => e);
      expect(isToolnexusError(error, "provider:malformed_response")).toBe(true);
    }
  });

  it("does not call the function once the signal is aborted, and lets its own errors through", async () => {
    let calls = 0;
    const driver = createInProcessDriver({
      model: "demo",
      generate: () => {
        calls++;
        throw new Error("model exploded");
      },
    });
    const controller = new AbortController();
    controller.abort();
    const aborted = await driver.generate({ ...ask(), signal: controller.signal }).catch((e: unknown) => e);
    expect(isToolnexusError(aborted, "aborted")).toBe(true);
    expect(calls).toBe(0);
    await expect(driver.generate(ask())).rejects.toThrow("model exploded");
    expect(calls).toBe(1);
  });

  it("refuses a missing generate function", () => {
    expect(() => createInProcessDriver({ model: "demo" } as never)).toThrow(/generate function/);
  });

  it("retries a generate function that fails the way a provider does, like every driver", async () => {
    let calls = 0;
    const generate = () => {
      calls += 1;
      if (calls === 1) throw new ToolnexusError("provider:http", "busy", { status: 503, retryAfterMs: 0 });
      return { text: "second try" };
    };
    expect((await createInProcessDriver({ model: "demo", generate }).generate(ask())).text).toBe(
      "second try",
    );
    expect(calls).toBe(2);

    calls = 0;
    const once = createInProcessDriver({ model: "demo", generate, retries: 0 });
    expect(isToolnexusError(await once.generate(ask()).catch((e: unknown) => e), "provider:http")).toBe(true);
    expect(calls).toBe(1);
  });
});
