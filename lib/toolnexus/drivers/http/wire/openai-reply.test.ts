import { describe, expect, it } from "vitest";
import { thrownCode } from "../../../testing/thrown-code";
import { openAiWire } from "./openai";
import { isPlainCompletion } from "./openai-reply";

const call = (id: unknown, name: unknown, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
const reply = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
  ...extra,
});

describe("the everyday OpenAI reply", () => {
  it.each([
    [
      "text",
      reply({ content: "Hi." }, { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }),
    ],
    [
      "two tool calls",
      reply({ content: null, tool_calls: [call("a", "lookup", '{"v":1}'), call("b", "convert", "")] }),
    ],
    ["nulls where the schema allows them", reply({ content: null, tool_calls: null }, { usage: null })],
    ["a call without id or arguments", reply({ tool_calls: [{ function: { name: "t" } }] })],
  ])("skips the schema for %s", (_, json) => {
    expect(isPlainCompletion(json)).toBe(true);
    expect(openAiWire.parseResponse(json).finishReason).toBe("stop");
  });

  it("reads an everyday reply exactly as the schema path would", () => {
    const json = reply({
      content: null,
      tool_calls: [call("a", "lookup", '{"v":1}'), call(null, "t", null)],
    });
    expect(openAiWire.parseResponse(json)).toEqual({
      text: "",
      toolCalls: [
        { id: "a", name: "lookup", args: { v: 1 } },
        { id: "call_1", name: "t", args: {} },
      ],
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      finishReason: "stop",
    });
  });

  it("leaves arguments sent as an object to the schema, which accepts them", () => {
    const json = reply({ content: null, tool_calls: [call("a", "t", { v: 1 })] });
    expect(isPlainCompletion(json)).toBe(false);
    expect(openAiWire.parseResponse(json).toolCalls).toEqual([{ id: "a", name: "t", args: { v: 1 } }]);
  });

  it.each([
    ["no choices", { choices: [] }],
    ["a choice without a message", { choices: [{ text: "legacy" }] }],
    ["a nameless tool call", reply({ tool_calls: [{ id: "c", function: {} }] })],
    ["a numeric content", reply({ content: 7 })],
    ["a numeric call id", reply({ tool_calls: [call(1, "t", "{}")] })],
    ["tool calls that are not a list", reply({ tool_calls: { id: "c" } })],
    ["usage as text", reply({ content: "x" }, { usage: "many" })],
    ["a token count as text", reply({ content: "x" }, { usage: { total_tokens: "5" } })],
    ["an array", []],
    ["null", null],
  ])("never lets %s past: the schema refuses it", async (_, json) => {
    expect(isPlainCompletion(json)).toBe(false);
    expect(await thrownCode(() => openAiWire.parseResponse(json))).toBe("provider:malformed_response");
  });
});
