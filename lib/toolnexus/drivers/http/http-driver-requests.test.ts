import { describe, expect, it, vi } from "vitest";
import { callDriver, weatherInput } from "../../testing/call-driver";
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

describe.each(["openai", "anthropic"] as const)("createHttpDriver, %s style", (style) => {
  for (const mode of ["json", "sse"] as const) {
    const call = (d = driver(style)) => callDriver(mode, d);

    it(`${mode}: sends the style's headers, endpoint and body`, async () => {
      stub.reply = () => ({ text: "ok" });
      stub.server.requests.length = 0;
      await call(
        createHttpDriver({
          baseUrl: stub.server.baseUrl(style),
          style,
          model: "test-model",
          apiKey: "sk-test",
          headers: { "X-Trace": "t-1", "Content-Type": "application/json" },
        }),
      );
      const [request] = stub.server.requests;
      expect(stub.server.requests).toHaveLength(1);
      expect(request!.headers["x-trace"]).toBe("t-1");
      expect(request!.headers["content-type"]).toBe("application/json");
      if (style === "openai") {
        expect(request!.path).toBe("/v1/chat/completions");
        expect(request!.headers.authorization).toBe("Bearer sk-test");
        expect(request!.body).toEqual({
          model: "test-model",
          messages: [
            { role: "system", content: "Be brief." },
            { role: "user", content: "What is the weather in Oslo and Rome?" },
          ],
          tools: [
            {
              type: "function",
              function: {
                name: "weather",
                description: "Current weather for a city",
                parameters: weatherInput.tools[0]!.inputSchema,
              },
            },
          ],
          tool_choice: "auto",
          ...(mode === "sse" ? { stream: true, stream_options: { include_usage: true } } : {}),
        });
      } else {
        expect(request!.path).toBe("/v1/messages");
        expect(request!.headers["x-api-key"]).toBe("sk-test");
        expect(request!.headers["anthropic-version"]).toBe("2023-06-01");
        expect(request!.headers.authorization).toBeUndefined();
        expect(request!.body).toEqual({
          model: "test-model",
          max_tokens: 4096,
          system: "Be brief.",
          messages: [
            { role: "user", content: [{ type: "text", text: "What is the weather in Oslo and Rome?" }] },
          ],
          tools: [
            {
              name: "weather",
              description: "Current weather for a city",
              input_schema: weatherInput.tools[0]!.inputSchema,
            },
          ],
          ...(mode === "sse" ? { stream: true } : {}),
        });
      }
    });
  }

  it("merges requestParams into every body (they win), then lets bodyTransform have it last", async () => {
    stub.reply = () => ({ text: "ok" });
    stub.server.requests.length = 0;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const shaped = createHttpDriver({
        baseUrl: stub.server.baseUrl(style),
        style,
        model: "test-model",
        apiKey: "sk-test",
        requestParams: { temperature: 0.2, max_tokens: 77, messages: [], tools: [], stream: true },
        bodyTransform: (body) => {
          body.seen = Object.keys(body).includes("temperature");
          delete body.temperature;
          return body;
        },
      });
      expect(warn).toHaveBeenCalledTimes(3);
      await callDriver("json", shaped);
      await callDriver("sse", shaped);
      const [json, sse] = stub.server.requests;
      for (const request of [json!, sse!]) {
        expect(request.body).toMatchObject({ max_tokens: 77, seen: true, model: "test-model" });
        expect(request.body).not.toHaveProperty("temperature");
        expect((request.body as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
      }
      expect(json!.body).not.toHaveProperty("stream");
      expect(sse!.body).toMatchObject({ stream: true });
    } finally {
      warn.mockRestore();
    }
  });

  it("sends a balanced transcript with both tool results of a turn", async () => {
    stub.reply = () => ({ text: "Oslo 3°C, Rome 18°C." });
    stub.server.requests.length = 0;
    const turn = await driver(style).generate({
      ...weatherInput,
      system: undefined,
      messages: [
        { role: "user", content: "Weather in Oslo and Rome?" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "c-1", name: "weather", args: { city: "Oslo" } },
            { id: "c-2", name: "weather", args: { city: "Rome" } },
          ],
        },
        { role: "tool", toolCallId: "c-1", name: "weather", content: "3°C", isError: false },
        { role: "tool", toolCallId: "c-2", name: "weather", content: "station offline", isError: true },
      ],
    });
    expect(turn.text).toBe("Oslo 3°C, Rome 18°C.");
    const messages = stub.server.requests[0]!.body.messages;
    if (style === "openai") {
      expect(messages).toEqual([
        { role: "user", content: "Weather in Oslo and Rome?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c-1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
            { id: "c-2", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c-1", content: "3°C" },
        { role: "tool", tool_call_id: "c-2", content: "station offline" },
      ]);
    } else {
      expect(stub.server.requests[0]!.body.system).toBeUndefined();
      expect(messages).toEqual([
        { role: "user", content: [{ type: "text", text: "Weather in Oslo and Rome?" }] },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "c-1", name: "weather", input: { city: "Oslo" } },
            { type: "tool_use", id: "c-2", name: "weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c-1", content: "3°C", is_error: false },
            { type: "tool_result", tool_use_id: "c-2", content: "station offline", is_error: true },
          ],
        },
      ]);
    }
  });
});
