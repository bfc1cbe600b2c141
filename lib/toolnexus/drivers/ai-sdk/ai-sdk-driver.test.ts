import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { Message, ModelInput, ToolSpec } from "../../types";
import { createAiSdkDriver } from "./ai-sdk-driver";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

const generated = (content: LanguageModelV3GenerateResult["content"]): LanguageModelV3GenerateResult => ({
  content,
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: usage(11, 7),
  warnings: [],
});

const weatherSpec: ToolSpec = {
  name: "weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

// A balanced transcript: two parallel calls in one turn, both answered (one with an error), in call order.
const transcript: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Oslo and Lima?" },
  {
    role: "assistant",
    content: "Checking both.",
    toolCalls: [
      { id: "c1", name: "weather", args: { city: "Oslo" } },
      { id: "c2", name: "weather", args: { city: "Lima" } },
    ],
  },
  { role: "tool", toolCallId: "c1", name: "weather", content: "-3C", isError: false },
  { role: "tool", toolCallId: "c2", name: "weather", content: "station offline", isError: true },
  { role: "assistant", content: "Oslo is -3C; Lima is unknown." },
  { role: "user", content: "Thanks" },
];

const input = (messages: Message[], extra: Partial<ModelInput> = {}): ModelInput => ({
  model: "ignored",
  messages,
  tools: [weatherSpec],
  ...extra,
});

describe("createAiSdkDriver: neutral transcript to the AI SDK prompt", () => {
  it("sends system, user, assistant tool calls and one grouped tool message per turn", async () => {
    const model = new MockLanguageModelV3({
      modelId: "mock-1",
      doGenerate: generated([{ type: "text", text: "ok" }]),
    });
    const driver = createAiSdkDriver(model);
    expect(driver.model).toBe("mock-1");

    await driver.generate(input(transcript, { system: "You are terse." }));
    const call = model.doGenerateCalls[0]!;

    expect(call.prompt).toEqual([
      { role: "system", content: "You are terse." },
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Weather in Oslo and Lima?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking both." },
          { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Oslo" } },
          { type: "tool-call", toolCallId: "c2", toolName: "weather", input: { city: "Lima" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "weather",
            output: { type: "text", value: "-3C" },
          },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "weather",
            output: { type: "error-text", value: "station offline" },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Oslo is -3C; Lima is unknown." }] },
      { role: "user", content: [{ type: "text", text: "Thanks" }] },
    ]);
    expect(call.tools).toEqual([
      {
        type: "function",
        name: "weather",
        description: "Weather for a city",
        inputSchema: weatherSpec.inputSchema,
      },
    ]);
    expect(call.toolChoice).toEqual({ type: "auto" });
  });

  it("omits the text part of a tool-calling turn with no text, and sends no tools when there are none", async () => {
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: "text", text: "ok" }]) });
    const messages: Message[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "", toolCalls: [{ id: "x", name: "noop", args: {} }] },
      { role: "tool", toolCallId: "x", name: "noop", content: "done", isError: false },
    ];
    await createAiSdkDriver(model).generate({ model: "m", messages, tools: [] });
    const call = model.doGenerateCalls[0]!;
    expect(call.prompt[1]).toEqual({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "x", toolName: "noop", input: {} }],
    });
    expect(call.tools).toBeUndefined();
  });
});

describe("createAiSdkDriver: AI SDK result to a model turn", () => {
  it("maps text, parallel tool calls, invalid arguments, usage and finish reason", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([
        { type: "reasoning", text: "thinking" },
        { type: "text", text: "Let me " },
        { type: "text", text: "look." },
        { type: "tool-call", toolCallId: "a", toolName: "weather", input: '{"city":"Oslo"}' },
        { type: "tool-call", toolCallId: "b", toolName: "weather", input: "{not json" },
        { type: "tool-call", toolCallId: "c", toolName: "weather", input: "" },
        { type: "tool-call", toolCallId: "d", toolName: "weather", input: "[1,2]" },
        { type: "tool-call", toolCallId: "e", toolName: "search", input: "{}", providerExecuted: true },
      ]),
    });
    const turn = await createAiSdkDriver(model).generate(input([{ role: "user", content: "hi" }]));
    expect(turn).toEqual({
      text: "Let me look.",
      toolCalls: [
        { id: "a", name: "weather", args: { city: "Oslo" } },
        { id: "b", name: "weather", args: {}, invalidArgs: "{not json" },
        { id: "c", name: "weather", args: {} },
        { id: "d", name: "weather", args: {}, invalidArgs: "[1,2]" },
      ],
      usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 },
      finishReason: "tool-calls",
    });
  });

  it("reports zero usage when the provider reports none", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "hi" }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
        warnings: [],
      },
    });
    const turn = await createAiSdkDriver(model).generate(input([{ role: "user", content: "hi" }]));
    expect(turn.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    expect(turn.finishReason).toBe("stop");
  });
});
