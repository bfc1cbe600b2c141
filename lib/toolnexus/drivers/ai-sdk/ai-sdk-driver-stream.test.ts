import {
  APICallError,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { isToolnexusError } from "../../errors";
import { collectAll } from "../../testing/collect-all";
import type { Message, ModelInput, ModelStreamPart } from "../../types";
import { createAiSdkDriver } from "./ai-sdk-driver";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

const generated = (content: LanguageModelV3GenerateResult["content"]): LanguageModelV3GenerateResult => ({
  content,
  finishReason: { unified: "stop", raw: "stop" },
  usage: usage(1, 1),
  warnings: [],
});

const input = (messages: Message[], extra: Partial<ModelInput> = {}): ModelInput => ({
  model: "ignored",
  messages,
  tools: [{ name: "weather", description: "Weather for a city", inputSchema: { type: "object" } }],
  ...extra,
});

describe("createAiSdkDriver: streaming", () => {
  const streaming = (parts: LanguageModelV3StreamPart[]) =>
    new MockLanguageModelV3({ doStream: { stream: convertArrayToReadableStream(parts) } });

  it("yields text deltas as they arrive, then exactly one turn with the assembled calls", async () => {
    const model = streaming([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hel" },
      { type: "text-delta", id: "t", delta: "lo" },
      { type: "text-end", id: "t" },
      { type: "tool-input-start", id: "a", toolName: "weather" },
      { type: "tool-input-delta", id: "a", delta: '{"city":' },
      { type: "tool-input-start", id: "b", toolName: "weather" },
      { type: "tool-input-delta", id: "a", delta: '"Oslo"}' },
      { type: "tool-input-delta", id: "b", delta: '{"city":"Lima"}' },
      { type: "tool-input-end", id: "a" },
      { type: "tool-input-end", id: "b" },
      // "a" closes with a tool-call part; "b" never does and is assembled from its input deltas.
      { type: "tool-call", toolCallId: "a", toolName: "weather", input: '{"city":"Oslo"}' },
      { type: "tool-call", toolCallId: "z", toolName: "weather", input: "oops" },
      { type: "finish", usage: usage(5, 3), finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ]);
    const parts = await collectAll(createAiSdkDriver(model).stream(input([{ role: "user", content: "hi" }])));
    expect(parts).toEqual([
      { type: "text", delta: "Hel" },
      { type: "text", delta: "lo" },
      {
        type: "turn",
        turn: {
          text: "Hello",
          toolCalls: [
            { id: "a", name: "weather", args: { city: "Oslo" } },
            { id: "b", name: "weather", args: { city: "Lima" } },
            { id: "z", name: "weather", args: {}, invalidArgs: "oops" },
          ],
          usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 },
          finishReason: "tool-calls",
        },
      },
    ]);
    expect(model.doStreamCalls[0]!.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ]);
  });

  it("turns an error part into a ToolnexusError after the text already streamed", async () => {
    const model = streaming([
      { type: "text-delta", id: "t", delta: "partial" },
      {
        type: "error",
        error: new APICallError({ message: "overloaded", url: "u", requestBodyValues: {}, statusCode: 529 }),
      },
    ]);
    const seen: ModelStreamPart[] = [];
    const error = await (async () => {
      for await (const part of createAiSdkDriver(model).stream(input([{ role: "user", content: "hi" }]))) {
        seen.push(part);
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: "text", delta: "partial" }]);
    expect(isToolnexusError(error, "provider:http")).toBe(true);
    expect((error as { status?: number }).status).toBe(529);
  });
});

describe("createAiSdkDriver: errors", () => {
  const failing = (error: unknown) =>
    createAiSdkDriver(
      new MockLanguageModelV3({
        doGenerate: async () => {
          throw error;
        },
        doStream: async () => {
          throw error;
        },
      }),
    );
  const hi = input([{ role: "user", content: "hi" }]);

  it("maps a provider status and body to provider:http, for generate and stream", async () => {
    const apiError = new APICallError({
      message: "Too Many Requests",
      url: "http://127.0.0.1/x",
      requestBodyValues: {},
      statusCode: 429,
      responseBody: '{"error":"slow down"}',
    });
    const driver = failing(apiError);
    for (const attempt of [() => driver.generate(hi), () => collectAll(driver.stream(hi))]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(isToolnexusError(error, "provider:http")).toBe(true);
      expect(error).toMatchObject({ status: 429, body: '{"error":"slow down"}' });
      expect((error as Error).cause).toBe(apiError);
    }
  });

  it("maps an unreachable endpoint to provider:network and anything else to provider:malformed_response", async () => {
    const unreachable = new APICallError({
      message: "Cannot connect to API: ECONNREFUSED",
      url: "http://127.0.0.1:9/x",
      requestBodyValues: {},
      isRetryable: true,
    });
    expect(
      await failing(unreachable)
        .generate(hi)
        .catch((e: unknown) => (e as { code: string }).code),
    ).toBe("provider:network");
    const odd = await failing(new TypeError("cannot read choices"))
      .generate(hi)
      .catch((e: unknown) => e);
    expect(isToolnexusError(odd, "provider:malformed_response")).toBe(true);
    expect((odd as Error).message).toContain("cannot read choices");
  });

  it("reports an abort as aborted, and never calls the model when the signal is already aborted", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "never" }]) });
    const controller = new AbortController();
    controller.abort();
    const error = await createAiSdkDriver(model)
      .generate(input([{ role: "user", content: "hi" }], { signal: controller.signal }))
      .catch((e: unknown) => e);
    expect(isToolnexusError(error, "aborted")).toBe(true);
    expect(model.doGenerateCalls).toHaveLength(0);

    const abortError = Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
    expect(
      await failing(abortError)
        .generate(hi)
        .catch((e: unknown) => (e as { code: string }).code),
    ).toBe("aborted");
  });

  it("reports a timeout as timeout, whether the error or the signal says so", async () => {
    const timeoutError = Object.assign(new Error("The operation timed out"), { name: "TimeoutError" });
    expect(
      await failing(timeoutError)
        .generate(hi)
        .catch((e: unknown) => (e as { code: string }).code),
    ).toBe("timeout");
    const controller = new AbortController();
    controller.abort(timeoutError);
    const viaSignal = await failing(new Error("aborted"))
      .generate({ ...hi, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isToolnexusError(viaSignal, "timeout")).toBe(true);
  });

  it("rejects something that is not a v3 language model", () => {
    expect(() => createAiSdkDriver("openai/gpt-4o" as never)).toThrow(/specification v3/);
  });
});
