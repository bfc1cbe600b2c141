import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStubLlmServer, type StubHandler, type StubLlmServer } from "./index";

let server: StubLlmServer;
let handler: StubHandler = () => ({ text: "hello" });

beforeAll(async () => {
  server = await createStubLlmServer((request) => handler(request));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The data payloads of an SSE body, with their event names. */
function events(text: string): Array<{ event?: string; data: string }> {
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)![1]!;
      return event === undefined ? { data } : { event, data };
    });
}

const twoCalls: StubHandler = () => ({
  text: "Checking the weather now.",
  toolCalls: [
    { name: "weather", args: { city: "Oslo", days: 3 } },
    { id: "fixed", name: "clock", rawArgs: "{}" },
  ],
  usage: { promptTokens: 11, completionTokens: 6 },
});

describe("createStubLlmServer", () => {
  it("routes both OpenAI paths and the Anthropic path, and records each request", async () => {
    handler = () => ({ text: "hi" });
    for (const path of ["/v1/chat/completions", "/chat/completions", "/v1/messages"]) {
      expect((await post(path, { model: "m", messages: [] }, { "x-api-key": "k" })).status).toBe(200);
    }
    expect(server.requests.map((r) => [r.style, r.path, r.headers["x-api-key"], r.body.model])).toEqual([
      ["openai", "/v1/chat/completions", "k", "m"],
      ["openai", "/chat/completions", "k", "m"],
      ["anthropic", "/v1/messages", "k", "m"],
    ]);
    expect(server.baseUrl("openai")).toBe(`${server.url}/v1`);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers unknown paths, other methods, bad bodies and handler failures with errors", async () => {
    expect((await post("/v1/embeddings", {})).status).toBe(404);
    expect((await fetch(`${server.url}/v1/messages`)).status).toBe(405);
    expect((await post("/v1/messages", "{nope")).status).toBe(400);
    handler = () => {
      throw new Error("handler broke");
    };
    const res = await post("/v1/messages", { model: "m" });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("handler broke");
    expect(server.requests).toHaveLength(1);
  });

  it("serves an OpenAI chat completion as JSON", async () => {
    handler = twoCalls;
    const body = await (await post("/v1/chat/completions", { model: "gpt-x", messages: [] })).json();
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "gpt-x",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Checking the weather now.",
            tool_calls: [
              { type: "function", function: { name: "weather", arguments: '{"city":"Oslo","days":3}' } },
              { id: "fixed", type: "function", function: { name: "clock", arguments: "{}" } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 },
    });
    expect(body.choices[0].message.tool_calls[0].id).toMatch(/^call_\d+$/);
  });

  it("streams an OpenAI reply in several text deltas and argument fragments, usage only on request", async () => {
    handler = twoCalls;
    const res = await post("/v1/chat/completions", { model: "m", messages: [], stream: true });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const list = events(await res.text());
    expect(list.at(-1)).toEqual({ data: "[DONE]" });
    const chunks = list.slice(0, -1).map((e) => JSON.parse(e.data));
    const deltas = chunks.map((c) => c.choices[0]?.delta);
    expect(deltas[0]).toEqual({ role: "assistant", content: "" });
    const texts = deltas.filter((d) => d?.content).map((d) => d.content);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join("")).toBe("Checking the weather now.");
    const firstArgs = deltas.flatMap((d) => d?.tool_calls ?? []).filter((f) => f.index === 0);
    expect(firstArgs.length).toBeGreaterThanOrEqual(4);
    expect(firstArgs.map((f) => f.function.arguments).join("")).toBe('{"city":"Oslo","days":3}');
    expect(chunks.some((c) => "usage" in c)).toBe(false);

    const withUsage = events(
      await (
        await post("/chat/completions", {
          messages: [],
          stream: true,
          stream_options: { include_usage: true },
        })
      ).text(),
    );
    const usageChunk = JSON.parse(withUsage.at(-2)!.data);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual({ prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 });
  });

  it("serves an Anthropic message as JSON and as its event sequence", async () => {
    handler = twoCalls;
    const json = await (await post("/v1/messages", { model: "claude-x", messages: [] })).json();
    expect(json).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-x",
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Checking the weather now." },
        { type: "tool_use", name: "weather", input: { city: "Oslo", days: 3 } },
        { type: "tool_use", id: "fixed", name: "clock", input: {} },
      ],
      usage: { input_tokens: 11, output_tokens: 6 },
    });

    const list = events(
      await (await post("/v1/messages", { model: "m", messages: [], stream: true })).text(),
    );
    const names = list.map((e) => e.event);
    expect(names[0]).toBe("message_start");
    expect(names.at(-2)).toBe("message_delta");
    expect(names.at(-1)).toBe("message_stop");
    expect(names.filter((n) => n === "content_block_start")).toHaveLength(3);
    for (const e of list) expect(JSON.parse(e.data).type).toBe(e.event);
    const partial = list
      .map((e) => JSON.parse(e.data))
      .filter((p) => p.type === "content_block_delta" && p.index === 1)
      .map((p) => p.delta.partial_json);
    expect(partial.length).toBeGreaterThanOrEqual(3);
    expect(partial.join("")).toBe('{"city":"Oslo","days":3}');
  });

  it("injects status codes, raw streams and dropped connections", async () => {
    handler = () => ({ status: 429, body: { error: "slow" }, headers: { "retry-after": "7" } });
    const limited = await post("/v1/messages", {});
    expect([limited.status, limited.headers.get("retry-after"), await limited.text()]).toEqual([
      429,
      "7",
      '{"error":"slow"}',
    ]);
    handler = () => ({ sseRaw: "data: {broken\n\n" });
    expect(await (await post("/v1/messages", {})).text()).toBe("data: {broken\n\n");
    handler = () => ({ drop: true });
    await expect(post("/v1/messages", {})).rejects.toThrow(TypeError);
  });

  it("paces events with chunkDelayMs and still delivers them all", async () => {
    const paced = await createStubLlmServer(() => ({ text: "one two three four" }), { chunkDelayMs: 5 });
    try {
      const res = await fetch(`${paced.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ messages: [], stream: true }),
      });
      const list = events(await res.text());
      const text = list
        .slice(0, -1)
        .map((e) => JSON.parse(e.data).choices[0].delta.content ?? "")
        .join("");
      expect(text).toBe("one two three four");
    } finally {
      await paced.close();
    }
  });

  it("closes with a response still open and tells the handler its client is gone", async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let handlerSawAbort = false;
    const other = await createStubLlmServer(({ signal }) => {
      arrived();
      return new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          handlerSawAbort = true;
          resolve({ text: "late" });
        }),
      );
    });
    const pending = fetch(`${other.url}/v1/messages`, { method: "POST", body: "{}" }).then(
      () => "answered",
      () => "connection closed",
    );
    await arrival;
    await other.close();
    expect(await pending).toBe("connection closed");
    expect(handlerSawAbort).toBe(true);
  });
});
