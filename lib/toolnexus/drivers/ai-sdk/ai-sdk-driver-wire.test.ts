import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolnexusError } from "../../errors";
import type { Message, ModelInput, ModelStreamPart } from "../../types";
import { createAiSdkDriver } from "./ai-sdk-driver";

// A real OpenAI-compatible provider against a real HTTP server: proves the driver's prompt survives
// the provider's own serialisation, and that its errors come back typed.

type Reply = (body: Record<string, any>, res: ServerResponse) => void;
let reply: Reply = () => undefined;
const bodies: Record<string, any>[] = [];
let server: Server;
let baseURL = "";

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    bodies.push(body);
    reply(body, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.close();
  await once(server, "close");
});

const model = () => createOpenAICompatible({ name: "stub", baseURL, apiKey: "k" })("stub-model");

const json = (res: ServerResponse, status: number, payload: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(payload));
};

const transcript: Message[] = [
  { role: "user", content: "Weather in Oslo and Lima?" },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c1", name: "weather", args: { city: "Oslo" } },
      { id: "c2", name: "weather", args: { city: "Lima" } },
    ],
  },
  { role: "tool", toolCallId: "c1", name: "weather", content: "-3C", isError: false },
  { role: "tool", toolCallId: "c2", name: "weather", content: "offline", isError: true },
];

const input: ModelInput = {
  model: "stub-model",
  system: "Be brief.",
  messages: transcript,
  tools: [{ name: "weather", description: "Weather", inputSchema: { type: "object", properties: {} } }],
};

describe("createAiSdkDriver over @ai-sdk/openai-compatible", () => {
  it("sends a balanced chat-completions transcript and reads parallel tool calls back", async () => {
    reply = (_body, res) =>
      json(res, 200, {
        id: "r1",
        object: "chat.completion",
        created: 1,
        model: "stub-model",
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "n1", type: "function", function: { name: "weather", arguments: '{"city":"Rome"}' } },
                { id: "n2", type: "function", function: { name: "weather", arguments: "{bad" } },
              ],
            },
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
      });
    bodies.length = 0;
    const turn = await createAiSdkDriver(model()).generate(input);

    const sent = bodies[0]!;
    expect(sent.model).toBe("stub-model");
    expect(sent.messages.map((m: { role: string }) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
    ]);
    expect(sent.messages[2].tool_calls.map((c: { id: string }) => c.id)).toEqual(["c1", "c2"]);
    expect(JSON.parse(sent.messages[2].tool_calls[1].function.arguments)).toEqual({ city: "Lima" });
    expect(sent.messages.slice(3)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "-3C" },
      { role: "tool", tool_call_id: "c2", content: "offline" },
    ]);
    expect(sent.tools[0].function.name).toBe("weather");

    expect(turn).toEqual({
      text: "",
      toolCalls: [
        { id: "n1", name: "weather", args: { city: "Rome" } },
        { id: "n2", name: "weather", args: {}, invalidArgs: "{bad" },
      ],
      usage: { promptTokens: 12, completionTokens: 4, totalTokens: 16 },
      finishReason: "tool-calls",
    });
  });

  it("streams SSE deltas and ends with one turn", async () => {
    reply = (_body, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const chunk = (delta: unknown, finish: string | null = null) =>
        event({
          id: "s",
          object: "chat.completion.chunk",
          created: 1,
          model: "stub-model",
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      chunk({ role: "assistant", content: "It is " });
      chunk({ content: "sunny." });
      chunk({}, "stop");
      event({
        id: "s",
        object: "chat.completion.chunk",
        created: 1,
        model: "stub-model",
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      });
      res.end("data: [DONE]\n\n");
    };
    const parts: ModelStreamPart[] = [];
    for await (const part of createAiSdkDriver(model()).stream(input)) parts.push(part);
    expect(parts.filter((p) => p.type === "text").map((p) => (p as { delta: string }).delta)).toEqual([
      "It is ",
      "sunny.",
    ]);
    expect(parts.at(-1)).toEqual({
      type: "turn",
      turn: {
        text: "It is sunny.",
        toolCalls: [],
        usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
        finishReason: "stop",
      },
    });
    expect(parts.filter((p) => p.type === "turn")).toHaveLength(1);
  });

  it("surfaces a non-2xx response as provider:http with the status and a body excerpt", async () => {
    reply = (_body, res) => json(res, 503, { error: { message: "model is warming up" } });
    bodies.length = 0;
    const error = await createAiSdkDriver(model(), { retryBaseMs: 1 })
      .generate(input)
      .catch((e: unknown) => e);
    expect(isToolnexusError(error, "provider:http")).toBe(true);
    expect(error).toMatchObject({ status: 503 });
    expect((error as { body: string }).body).toContain("model is warming up");
    // The first attempt and the two retries every driver makes by default.
    expect(bodies).toHaveLength(3);
  });

  it("retries a 429 after its Retry-After and a 5xx, for generate and before a stream starts", async () => {
    const failures = [
      (res: ServerResponse) => {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
        res.end(JSON.stringify({ error: { message: "slow down" } }));
      },
      (res: ServerResponse) => json(res, 502, { error: { message: "bad gateway" } }),
    ];
    for (const call of ["generate", "stream"] as const) {
      let attempt = 0;
      reply = (body, res) => {
        const fail = failures[attempt++];
        if (fail) return fail(res);
        if (!body.stream) return json(res, 200, chatCompletion("third time"));
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(chatChunk("third time"))}\n\ndata: [DONE]\n\n`);
      };
      bodies.length = 0;
      const driver = createAiSdkDriver(model(), { retryBaseMs: 1 });
      const text =
        call === "generate"
          ? (await driver.generate(input)).text
          : (await collectTurn(driver.stream(input))).text;
      expect(text).toBe("third time");
      expect(bodies).toHaveLength(3);
    }
  });

  it("makes one attempt only with retries: 0", async () => {
    reply = (_body, res) => json(res, 500, { error: { message: "down" } });
    bodies.length = 0;
    const error = await createAiSdkDriver(model(), { retries: 0 })
      .generate(input)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "provider:http", status: 500 });
    expect(bodies).toHaveLength(1);
  });
});

function chatCompletion(text: string) {
  return {
    id: "r1",
    object: "chat.completion",
    created: 0,
    model: "stub-model",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function chatChunk(text: string) {
  return {
    id: "r1",
    object: "chat.completion.chunk",
    created: 0,
    model: "stub-model",
    choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: "stop" }],
  };
}

async function collectTurn(stream: AsyncIterable<ModelStreamPart>) {
  for await (const part of stream) if (part.type === "turn") return part.turn;
  throw new Error("the stream ended without a turn");
}
