import { describe, expect, it } from "vitest";
import { thrownCode } from "../../../testing/thrown-code";
import type { ModelStreamPart } from "../../../types";
import { parseSse } from "../sse";
import { openAiWire } from "./openai";

function sse(text: string) {
  return parseSse(new Blob([text]).stream());
}

async function decode(text: string): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of openAiWire.decodeStream(sse(text))) parts.push(part);
  return parts;
}

const data = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

describe("openAiWire.body", () => {
  it("keeps mid-transcript system messages, assistant text beside tool calls, and the model's raw bad arguments", async () => {
    const body = openAiWire.body(
      {
        model: "gpt",
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: "Trying.",
            toolCalls: [{ id: "c1", name: "t", args: {}, invalidArgs: "{oops" }],
          },
          { role: "tool", toolCallId: "c1", name: "t", content: "arguments were not JSON", isError: true },
          { role: "system", content: "Stay polite." },
          { role: "assistant", content: "" },
        ],
        tools: [],
      },
      { stream: false, maxTokens: 4096 },
    );
    expect(body).toEqual({
      model: "gpt",
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "Trying.",
          tool_calls: [{ id: "c1", type: "function", function: { name: "t", arguments: "{oops" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "arguments were not JSON" },
        { role: "system", content: "Stay polite." },
        { role: "assistant", content: "" },
      ],
    });
  });

  it("joins the endpoint without doubling slashes", async () => {
    expect(openAiWire.endpoint("http://h/v1/")).toBe("http://h/v1/chat/completions");
    expect(openAiWire.endpoint("http://h")).toBe("http://h/chat/completions");
  });
});

describe("openAiWire.parseResponse", () => {
  it("accepts null content, decoded arguments, missing ids and a usage without total", async () => {
    const turn = openAiWire.parseResponse({
      choices: [
        {
          message: {
            content: null,
            tool_calls: [
              { function: { name: "a", arguments: { x: 1 } } },
              { id: "c2", function: { name: "b", arguments: '{"y":2}' } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });
    expect(turn).toEqual({
      text: "",
      toolCalls: [
        { id: "call_0", name: "a", args: { x: 1 } },
        { id: "c2", name: "b", args: { y: 2 } },
      ],
      usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
      finishReason: "tool_calls",
    });
  });

  it.each([
    ["no choices", { choices: [] }],
    ["no message", { choices: [{ text: "legacy completion" }] }],
    [
      "a nameless tool call",
      { choices: [{ message: { content: null, tool_calls: [{ id: "c", function: {} }] } }] },
    ],
    ["an error object", { error: { message: "bad key" } }],
    ["an array", []],
  ])("refuses %s as malformed", async (_, json) => {
    expect(await thrownCode(() => openAiWire.parseResponse(json))).toBe("provider:malformed_response");
  });
});

describe("openAiWire.decodeStream", () => {
  it("assembles interleaved tool-call fragments by index and keeps the first name", async () => {
    const parts = await decode(
      data({ choices: [{ delta: { role: "assistant", content: "" } }] }) +
        data({
          choices: [
            { delta: { tool_calls: [{ index: 1, id: "c2", function: { name: "b", arguments: "" } }] } },
          ],
        }) +
        data({
          choices: [
            { delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "a", arguments: '{"q":' } }] } },
          ],
        }) +
        data({
          choices: [{ delta: { tool_calls: [{ index: 1, function: { name: "b", arguments: '{"n":' } }] } }],
        }) +
        data({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] } }] }) +
        data({ choices: [{ delta: { tool_calls: [{ index: 1, function: { arguments: "1}" } }] } }] }) +
        data({ choices: [{ delta: {}, finish_reason: "tool_calls" }], usage: null }) +
        data({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }) +
        "data: [DONE]\n\n" +
        "data: this is ignored\n\n",
    );
    expect(parts).toEqual([
      {
        type: "turn",
        turn: {
          text: "",
          toolCalls: [
            { id: "c1", name: "a", args: { q: "x" } },
            { id: "c2", name: "b", args: { n: 1 } },
          ],
          usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
          finishReason: "tool_calls",
        },
      },
    ]);
  });

  it("streams text deltas before the final turn", async () => {
    const parts = await decode(
      data({ choices: [{ delta: { content: "Hel" } }] }) +
        data({ choices: [{ delta: { content: "lo" } }] }) +
        "data: [DONE]\n\n",
    );
    expect(parts).toEqual([
      { type: "text", delta: "Hel" },
      { type: "text", delta: "lo" },
      {
        type: "turn",
        turn: {
          text: "Hello",
          toolCalls: [],
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        },
      },
    ]);
  });

  it("refuses a chunk of the wrong shape and a stream without [DONE]", async () => {
    expect(await thrownCode(() => decode(`${data({ choices: "nope" })}data: [DONE]\n\n`))).toBe(
      "provider:malformed_sse",
    );
    expect(await thrownCode(() => decode(data({ choices: [{ delta: {}, finish_reason: "stop" }] })))).toBe(
      "provider:malformed_sse",
    );
    expect(await thrownCode(() => decode(""))).toBe("provider:malformed_sse");
  });
});
