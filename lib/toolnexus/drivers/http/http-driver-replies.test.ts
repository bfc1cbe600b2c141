import { describe, expect, it } from "vitest";
import { callDriver } from "../../testing/call-driver";
import { useStubLlmServer } from "../../testing/use-stub-llm-server";
import { createHttpDriver, type WireStyle } from "./http-driver";

const stub = useStubLlmServer();

function driver(style: WireStyle) {
  return createHttpDriver({
    baseUrl: stub.server.baseUrl(style),
    style,
    model: "test-model",
    apiKey: "sk-test",
  });
}

const longCity = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch";

describe.each(["openai", "anthropic"] as const)("createHttpDriver, %s style", (style) => {
  for (const mode of ["json", "sse"] as const) {
    const call = (d = driver(style)) => callDriver(mode, d);

    it(`${mode}: returns plain text with usage`, async () => {
      stub.reply = () => ({
        text: "Sunny in both cities today.",
        usage: { promptTokens: 21, completionTokens: 7 },
      });
      const { deltas, turn } = await call();
      expect(turn.text).toBe("Sunny in both cities today.");
      expect(turn.toolCalls).toEqual([]);
      expect(turn.usage).toEqual({ promptTokens: 21, completionTokens: 7, totalTokens: 28 });
      expect(turn.finishReason).toBe(style === "openai" ? "stop" : "end_turn");
      if (mode === "sse") {
        expect(deltas.length).toBeGreaterThan(1);
        expect(deltas.join("")).toBe("Sunny in both cities today.");
      }
    });

    it(`${mode}: returns parallel tool calls in order, with arguments sent in fragments`, async () => {
      stub.reply = () => ({
        text: "Checking.",
        toolCalls: [
          { id: "c-1", name: "weather", args: { city: "Oslo" } },
          { id: "c-2", name: "weather", args: { city: longCity, units: { temp: "C" } } },
        ],
      });
      const { turn } = await call();
      expect(turn.text).toBe("Checking.");
      expect(turn.toolCalls).toEqual([
        { id: "c-1", name: "weather", args: { city: "Oslo" } },
        { id: "c-2", name: "weather", args: { city: longCity, units: { temp: "C" } } },
      ]);
      expect(turn.usage.promptTokens).toBeGreaterThan(0);
      expect(turn.usage.totalTokens).toBe(turn.usage.promptTokens + turn.usage.completionTokens);
    });

    it(`${mode}: reports argument text that is not a JSON object without throwing`, async () => {
      stub.reply = () => ({
        toolCalls: [
          { id: "bad-1", name: "weather", rawArgs: '{"city": "Os' },
          { id: "bad-2", name: "weather", rawArgs: "[1,2]" },
          { id: "ok-3", name: "weather", rawArgs: "" },
        ],
      });
      const { turn } = await call();
      expect(turn.toolCalls).toEqual([
        { id: "bad-1", name: "weather", args: {}, invalidArgs: '{"city": "Os' },
        { id: "bad-2", name: "weather", args: {}, invalidArgs: "[1,2]" },
        { id: "ok-3", name: "weather", args: {} },
      ]);
    });

    it(`${mode}: treats a reply without usage as zero usage`, async () => {
      stub.reply = () => ({ text: "ok", usage: null });
      const { turn } = await call();
      expect(turn.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    });
  }
});
