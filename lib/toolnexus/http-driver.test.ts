import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpDriver, type WireStyle } from "./http-driver";
import { createStubLlmServer, type StubLlmServer, type StubReply, type StubRequest } from "./testing";
import { thrownCode } from "./testing/thrown-code";
import type { ModelInput, ModelStreamPart, ModelTurn } from "./types";

let server: StubLlmServer;
let nextReply: (request: StubRequest) => StubReply = () => ({ text: "unset" });

beforeAll(async () => {
  server = await createStubLlmServer((request) => nextReply(request));
});
afterAll(() => server.close());

const input: ModelInput = {
  model: "test-model",
  system: "Be brief.",
  messages: [{ role: "user", content: "What is the weather in Oslo and Rome?" }],
  tools: [
    {
      name: "weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

function driver(style: WireStyle) {
  return createHttpDriver({ baseUrl: server.baseUrl(style), style, model: "test-model", apiKey: "sk-test" });
}

async function collect(stream: AsyncIterable<ModelStreamPart>) {
  const deltas: string[] = [];
  const turns: ModelTurn[] = [];
  for await (const part of stream) {
    if (part.type === "text") deltas.push(part.delta);
    else turns.push(part.turn);
  }
  expect(turns).toHaveLength(1);
  return { deltas, turn: turns[0]! };
}

const longCity = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch";

describe.each(["openai", "anthropic"] as const)("createHttpDriver, %s style", (style) => {
  for (const mode of ["json", "sse"] as const) {
    const call = async (d = driver(style)) => {
      if (mode === "json") return { deltas: [], turn: await d.generate(input) };
      return collect(d.stream(input));
    };

    it(`${mode}: returns plain text with usage`, async () => {
      nextReply = () => ({
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
      nextReply = () => ({
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
      nextReply = () => ({
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
      nextReply = () => ({ text: "ok", usage: null });
      const { turn } = await call();
      expect(turn.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    });

    it(`${mode}: sends the style's headers, endpoint and body`, async () => {
      nextReply = () => ({ text: "ok" });
      server.requests.length = 0;
      await call(
        createHttpDriver({
          baseUrl: server.baseUrl(style),
          style,
          model: "test-model",
          apiKey: "sk-test",
          headers: { "X-Trace": "t-1", "Content-Type": "application/json" },
        }),
      );
      const [request] = server.requests;
      expect(server.requests).toHaveLength(1);
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
                parameters: input.tools[0]!.inputSchema,
              },
            },
          ],
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
              input_schema: input.tools[0]!.inputSchema,
            },
          ],
          ...(mode === "sse" ? { stream: true } : {}),
        });
      }
    });
  }

  it("sends a balanced transcript with both tool results of a turn", async () => {
    nextReply = () => ({ text: "Oslo 3°C, Rome 18°C." });
    server.requests.length = 0;
    const turn = await driver(style).generate({
      ...input,
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
    const messages = server.requests[0]!.body.messages;
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
      expect(server.requests[0]!.body.system).toBeUndefined();
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

describe("createHttpDriver configuration", () => {
  const base = { baseUrl: "http://127.0.0.1:9/v1", style: "openai" as const, model: "m", apiKey: "k" };
  it("refuses a missing or blank API key", async () => {
    expect(await thrownCode(() => createHttpDriver({ ...base, apiKey: undefined }))).toBe(
      "config:missing_api_key",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, apiKey: "  " }))).toBe(
      "config:missing_api_key",
    );
  });

  it("refuses an unknown wire style", async () => {
    expect(await thrownCode(() => createHttpDriver({ ...base, style: "gemini" as WireStyle }))).toBe(
      "config:unknown_style",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, style: "toString" as WireStyle }))).toBe(
      "config:unknown_style",
    );
  });

  it("refuses a bad baseUrl and bad numbers", async () => {
    expect(await thrownCode(() => createHttpDriver({ ...base, baseUrl: "not a url" }))).toBe(
      "config:invalid",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, baseUrl: "ftp://host/v1" }))).toBe(
      "config:invalid",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, retries: -1 }))).toBe("config:invalid");
    expect(await thrownCode(() => createHttpDriver({ ...base, timeoutMs: 0 }))).toBe("config:invalid");
    expect(await thrownCode(() => createHttpDriver(base))).toBe("no error");
  });

  it("uses an injected fetch instead of the global one", async () => {
    const seen: Array<{ url: string; body: unknown }> = [];
    const fetchStub: typeof fetch = async (url, init) => {
      seen.push({ url: String(url), body: JSON.parse(String(init?.body)) });
      const reply = { choices: [{ message: { role: "assistant", content: "from the stub" } }] };
      return new Response(JSON.stringify(reply), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    };
    const d = createHttpDriver({ ...base, baseUrl: "http://stub", fetch: fetchStub });
    const turn = await d.generate({ model: "m", messages: [{ role: "user", content: "hi" }], tools: [] });
    expect(turn).toEqual({
      text: "from the stub",
      toolCalls: [],
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(seen).toEqual([
      {
        url: "http://stub/chat/completions",
        body: { model: "m", messages: [{ role: "user", content: "hi" }] },
      },
    ]);
  });

  it("lets a caller's header replace the style's own, whatever its case", async () => {
    let sent: Headers | undefined;
    const fetchStub: typeof fetch = async (_url, init) => {
      sent = new Headers(init?.headers);
      return new Response(JSON.stringify({ choices: [{ message: { content: "ok" } }] }));
    };
    const d = createHttpDriver({
      ...base,
      fetch: fetchStub,
      headers: { Authorization: "Bearer gateway-token" },
    });
    await d.generate({ model: "m", messages: [], tools: [] });
    expect(sent?.get("authorization")).toBe("Bearer gateway-token");
  });
});
