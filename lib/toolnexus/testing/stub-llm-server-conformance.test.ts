import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, type LanguageModel, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStubLlmServer, type StubLlmServer, type StubStyle } from "./index";

// The stub is only useful if real clients accept what it sends: the AI SDK's own providers
// are independent parsers of both wire formats, so they are the judge here.

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let server: StubLlmServer;

beforeAll(async () => {
  server = await createStubLlmServer(({ style, body }) => {
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    const sawResult = messages.some(
      (m) =>
        m.role === "tool" ||
        (Array.isArray(m.content) && m.content.some((b: { type?: string }) => b.type === "tool_result")),
    );
    if (sawResult)
      return { text: `Sums are in (${style}).`, usage: { promptTokens: 40, completionTokens: 5 } };
    return {
      text: "Adding.",
      toolCalls: [
        { name: "add", args: { a: 1, b: 2 } },
        { name: "add", args: { a: 30, b: 12 } },
      ],
      usage: { promptTokens: 20, completionTokens: 9 },
    };
  });
});
afterAll(() => server.close());

const tools = {
  add: tool({
    description: "Add two numbers",
    inputSchema: jsonSchema<{ a: number; b: number }>({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    }),
    execute: async ({ a, b }) => String(a + b),
  }),
};

function modelFor(style: StubStyle): LanguageModel {
  if (style === "openai") {
    return createOpenAICompatible({
      name: "stub",
      baseURL: server.baseUrl(style),
      apiKey: "k",
      includeUsage: true,
    })("stub-model");
  }
  return createAnthropic({ baseURL: server.baseUrl(style), apiKey: "k" })("stub-model");
}

describe.each(["openai", "anthropic"] as const)("the stub as seen by the AI SDK's %s provider", (style) => {
  it("serves a two-step tool round trip as JSON", async () => {
    const result = await generateText({
      model: modelFor(style),
      tools,
      stopWhen: stepCountIs(4),
      maxOutputTokens: 256,
      prompt: "add",
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls.map((c) => c.input)).toEqual([
      { a: 1, b: 2 },
      { a: 30, b: 12 },
    ]);
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual(["3", "42"]);
    expect(result.text).toBe(`Sums are in (${style}).`);
    expect(result.totalUsage.inputTokens).toBe(60);
    expect(result.totalUsage.outputTokens).toBe(14);
  });

  it("serves the same round trip as SSE", async () => {
    const deltas: string[] = [];
    const result = streamText({
      model: modelFor(style),
      tools,
      stopWhen: stepCountIs(4),
      maxOutputTokens: 256,
      prompt: "add",
      onError: ({ error }) => {
        throw error;
      },
    });
    for await (const delta of result.textStream) deltas.push(delta);
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]!.toolCalls.map((c) => c.input)).toEqual([
      { a: 1, b: 2 },
      { a: 30, b: 12 },
    ]);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join("")).toBe(`Adding.Sums are in (${style}).`);
    expect((await result.totalUsage).inputTokens).toBe(60);
  });
});
