import { describe, expect, it } from "vitest";
import { thrownCode } from "../../../testing/thrown-code";
import type { ModelStreamPart } from "../../../types";
import { parseSse } from "../sse";
import { anthropicWire } from "./anthropic";

async function decode(text: string): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of anthropicWire.decodeStream(parseSse(new Blob([text]).stream()))) parts.push(part);
  return parts;
}

const event = (type: string, payload: Record<string, unknown> = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

describe("anthropicWire.endpoint", () => {
  it("adds /v1 only when the base URL lacks it", async () => {
    expect(anthropicWire.endpoint("https://api.anthropic.com")).toBe("https://api.anthropic.com/v1/messages");
    expect(anthropicWire.endpoint("https://api.anthropic.com/v1/")).toBe(
      "https://api.anthropic.com/v1/messages",
    );
    expect(anthropicWire.endpoint("http://gw/proxy/v1")).toBe("http://gw/proxy/v1/messages");
  });
});

describe("anthropicWire.body", () => {
  it("hoists system text, merges same-role neighbours and drops empty assistant turns", async () => {
    const body = anthropicWire.body(
      {
        model: "claude",
        system: "Be brief.",
        messages: [
          { role: "system", content: "Use metric units." },
          { role: "user", content: "first" },
          { role: "assistant", content: "" },
          { role: "user", content: "second" },
          {
            role: "assistant",
            content: "On it.",
            toolCalls: [{ id: "t1", name: "w", args: {}, invalidArgs: "{x" }],
          },
          { role: "tool", toolCallId: "t1", name: "w", content: "bad arguments", isError: true },
          { role: "user", content: "and now?" },
        ],
        tools: [],
      },
      { stream: false, maxTokens: 512 },
    );
    expect(body).toEqual({
      model: "claude",
      max_tokens: 512,
      system: "Be brief.\n\nUse metric units.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "first" },
            { type: "text", text: "second" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "On it." },
            { type: "tool_use", id: "t1", name: "w", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "bad arguments", is_error: true },
            { type: "text", text: "and now?" },
          ],
        },
      ],
    });
  });
});

describe("anthropicWire.parseResponse", () => {
  it("joins text blocks, skips unknown blocks and counts cached input", async () => {
    const turn = anthropicWire.parseResponse({
      content: [
        { type: "thinking", thinking: "hmm", signature: "s" },
        { type: "text", text: "Let me " },
        { type: "text", text: "check." },
        { type: "tool_use", id: "t1", name: "w", input: { city: "Oslo" } },
        { type: "tool_use", id: "t2", name: "w", input: '{"city":"Rome"}' },
        { type: "tool_use", id: "t3", name: "w", input: [1] },
      ],
      usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 90 },
      stop_reason: "tool_use",
    });
    expect(turn).toEqual({
      text: "Let me check.",
      toolCalls: [
        { id: "t1", name: "w", args: { city: "Oslo" } },
        { id: "t2", name: "w", args: { city: "Rome" } },
        { id: "t3", name: "w", args: {}, invalidArgs: "[1]" },
      ],
      usage: { promptTokens: 100, completionTokens: 4, totalTokens: 104 },
      finishReason: "tool_use",
    });
  });

  it.each([
    ["content that is not a list", { content: "hi" }],
    ["a tool_use without id", { content: [{ type: "tool_use", name: "w", input: {} }] }],
    ["an error body", { type: "error", error: { type: "overloaded_error" } }],
  ])("refuses %s as malformed", async (_, json) => {
    expect(await thrownCode(() => anthropicWire.parseResponse(json))).toBe("provider:malformed_response");
  });
});

describe("anthropicWire.decodeStream", () => {
  it("assembles text and tool input, taking usage from message_start and message_delta", async () => {
    const parts = await decode(
      event("message_start", { message: { usage: { input_tokens: 12, output_tokens: 1 } } }) +
        event("ping") +
        event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
        event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Look" } }) +
        event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "ing." } }) +
        event("content_block_stop", { index: 0 }) +
        event("content_block_start", {
          index: 1,
          content_block: { type: "tool_use", id: "t1", name: "w", input: {} },
        }) +
        event("content_block_delta", {
          index: 1,
          delta: { type: "input_json_delta", partial_json: '{"ci' },
        }) +
        event("content_block_delta", {
          index: 1,
          delta: { type: "input_json_delta", partial_json: 'ty":"Oslo"}' },
        }) +
        event("content_block_stop", { index: 1 }) +
        event("content_block_start", {
          index: 2,
          content_block: { type: "tool_use", id: "t2", name: "now", input: {} },
        }) +
        event("content_block_stop", { index: 2 }) +
        event("some_future_event", { index: 9 }) +
        event("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } }) +
        event("message_stop"),
    );
    expect(parts).toEqual([
      { type: "text", delta: "Look" },
      { type: "text", delta: "ing." },
      {
        type: "turn",
        turn: {
          text: "Looking.",
          toolCalls: [
            { id: "t1", name: "w", args: { city: "Oslo" } },
            { id: "t2", name: "now", args: {} },
          ],
          usage: { promptTokens: 12, completionTokens: 30, totalTokens: 42 },
          finishReason: "tool_use",
        },
      },
    ]);
  });

  it("refuses broken event sequences", async () => {
    const start = event("message_start", { message: { usage: { input_tokens: 1 } } });
    expect(await thrownCode(() => decode(`${start}${event("content_block_start", { index: 0 })}`))).toBe(
      "provider:malformed_sse",
    );
    const jsonIntoText =
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
      event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: "{}" } }) +
      event("message_stop");
    expect(await thrownCode(() => decode(start + jsonIntoText))).toBe("provider:malformed_sse");
    expect(await thrownCode(() => decode(`${start}data: {"no_type":true}\n\n`))).toBe(
      "provider:malformed_sse",
    );
    expect(await thrownCode(() => decode(start))).toBe("provider:malformed_sse");
  });
});
