import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isToolnexusError, type ToolnexusError, type ToolnexusErrorCode } from "./errors";
import { createHttpDriver, type HttpDriverOptions, type WireStyle } from "./http-driver";
import { createStubLlmServer, type StubHandler, type StubLlmServer } from "./testing";
import type { ModelInput } from "./types";

let server: StubLlmServer;
let handler: StubHandler = () => ({ text: "unset" });

beforeAll(async () => {
  server = await createStubLlmServer((request) => handler(request));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const input: ModelInput = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] };

function driver(style: WireStyle, extra: Partial<HttpDriverOptions> = {}) {
  return createHttpDriver({
    baseUrl: server.baseUrl(style),
    style,
    model: "m",
    apiKey: "k",
    retryBaseMs: 1,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>): Promise<ToolnexusError> {
  try {
    await promise;
  } catch (error) {
    if (isToolnexusError(error)) return error;
    throw new Error(`expected a ToolnexusError, got ${String(error)}`);
  }
  throw new Error("expected the call to fail");
}

async function drain(stream: AsyncIterable<unknown>, onPart?: (part: unknown) => void): Promise<void> {
  for await (const part of stream) onPart?.(part);
}

/** Replies from a list, one per request; the last entry repeats. */
function sequence(...replies: Array<ReturnType<StubHandler>>): StubHandler {
  let i = 0;
  return () => replies[Math.min(i++, replies.length - 1)]!;
}

describe.each(["openai", "anthropic"] as const)("HTTP driver errors, %s style", (style) => {
  it("reports a 4xx with its status and a body excerpt, without retrying", async () => {
    const detail = `invalid model: ${"x".repeat(1000)}`;
    handler = () => ({ status: 400, body: { error: { message: detail } } });
    const error = await failure(driver(style).generate(input));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(400);
    expect(error.body).toContain("invalid model: xxx");
    expect(error.body!.length).toBe(500);
    expect(error.message).toContain(error.body);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a 5xx, then reports it once the retries are spent", async () => {
    handler = () => ({ status: 503, body: "overloaded" });
    const error = await failure(driver(style, { retries: 2 }).generate(input));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(503);
    expect(error.body).toBe("overloaded");
    expect(server.requests).toHaveLength(3);
  });

  it("retries a 429 after its Retry-After and then succeeds", async () => {
    handler = sequence(
      { status: 429, body: "slow down", headers: { "retry-after": "0" } },
      { text: "after the wait" },
    );
    const turn = await driver(style).generate(input);
    expect(turn.text).toBe("after the wait");
    expect(server.requests).toHaveLength(2);
  });

  it("retries a dropped connection and then succeeds", async () => {
    handler = sequence({ drop: true }, { drop: true }, { text: "third time lucky" });
    const turn = await driver(style, { retries: 2 }).generate(input);
    expect(turn.text).toBe("third time lucky");
    expect(server.requests).toHaveLength(3);
  });

  it("reports provider:network when every attempt is dropped", async () => {
    handler = () => ({ drop: true });
    const error = await failure(driver(style, { retries: 1 }).generate(input));
    expect(error.code).toBe("provider:network");
    expect(server.requests).toHaveLength(2);
  });

  it("reports a body that is not JSON, or not this format, as malformed", async () => {
    handler = () => ({ status: 200, body: "<html>gateway</html>" });
    const notJson = await failure(driver(style).generate(input));
    expect(notJson.code).toBe("provider:malformed_response");
    expect(notJson.body).toBe("<html>gateway</html>");
    handler = () => ({ status: 200, body: { result: "something else" } });
    expect((await failure(driver(style).generate(input))).code).toBe("provider:malformed_response");
    expect(server.requests).toHaveLength(2);
  });

  it("reports a stream with an event that is not JSON as malformed SSE", async () => {
    handler = () => ({ sseRaw: "data: {not json\n\n" });
    const error = await failure(drain(driver(style).stream(input)));
    expect(error.code).toBe("provider:malformed_sse");
    expect(error.body).toBe("{not json");
  });

  it("reports a stream that ends before its final event as malformed SSE, after the text it did get", async () => {
    handler = () => ({
      sseRaw:
        style === "openai"
          ? 'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n'
          : 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n' +
            'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
            'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}\n\n',
    });
    const parts: unknown[] = [];
    const error = await failure(drain(driver(style).stream(input), (part) => parts.push(part)));
    expect(error.code).toBe("provider:malformed_sse");
    expect(parts).toEqual([{ type: "text", delta: "Hel" }]);
  });

  it("aborts before sending when the signal is already aborted", async () => {
    handler = () => ({ text: "never" });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(driver(style).generate({ ...input, signal: controller.signal }));
    expect(error.code).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("aborts an in-flight call and closes its connection", async () => {
    const disconnected = holdUntilDisconnect();
    const controller = new AbortController();
    const call = driver(style).generate({ ...input, signal: controller.signal });
    await disconnected.arrived;
    controller.abort(new Error("user left"));
    const error = await failure(call);
    expect(error.code).toBe("aborted");
    expect((error.cause as Error).message).toBe("user left");
    await disconnected.closed;
  });

  it("times out an in-flight call, closes its connection and does not retry", async () => {
    const disconnected = holdUntilDisconnect();
    const error = await failure(driver(style, { timeoutMs: 150, retries: 2 }).generate(input));
    expect(error.code).toBe("timeout");
    await disconnected.closed;
    expect(server.requests).toHaveLength(1);
  });

  it("aborts a stream that is already delivering", async () => {
    handler = () => ({ sseRaw: firstDelta(style), keepOpen: true });
    const controller = new AbortController();
    const parts: unknown[] = [];
    const error = await failure(
      drain(driver(style).stream({ ...input, signal: controller.signal }), (part) => {
        parts.push(part);
        controller.abort();
      }),
    );
    expect(error.code).toBe("aborted");
    expect(parts).toEqual([{ type: "text", delta: "Hi" }]);
  });

  it("times out a stream that stalls between chunks", async () => {
    handler = () => ({ sseRaw: firstDelta(style), keepOpen: true });
    const parts: unknown[] = [];
    const error = await failure(drain(driver(style, { timeoutMs: 150 }).stream(input), (p) => parts.push(p)));
    expect(error.code).toBe("timeout");
    expect(parts).toEqual([{ type: "text", delta: "Hi" }]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("HTTP driver errors, style-specific", () => {
  it("turns an Anthropic error event into provider:http", async () => {
    handler = () => ({
      sseRaw:
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    });
    const error = await failure(drain(driver("anthropic").stream(input)));
    expect(error.code).toBe("provider:http");
    expect(error.body).toContain("overloaded_error");
  });

  it("turns an OpenAI error chunk into provider:http", async () => {
    handler = () => ({ sseRaw: 'data: {"error":{"message":"context length exceeded"}}\n\n' });
    const error = await failure(drain(driver("openai").stream(input)));
    expect(error.code).toBe("provider:http");
    expect(error.message).toContain("context length exceeded");
  });

  it("reports provider:network when nothing listens on the port", async () => {
    const closed = await createStubLlmServer(() => ({ text: "" }));
    const baseUrl = closed.baseUrl("openai");
    await closed.close();
    const d = createHttpDriver({
      baseUrl,
      style: "openai",
      model: "m",
      apiKey: "k",
      retries: 1,
      retryBaseMs: 1,
    });
    expect((await failure(d.generate(input))).code).toBe("provider:network");
  });

  it("times out even when an injected fetch ignores its signal", async () => {
    const stuck: typeof fetch = () => new Promise<Response>(() => {});
    const d = createHttpDriver({
      baseUrl: "http://stub",
      style: "openai",
      model: "m",
      apiKey: "k",
      fetch: stuck,
      timeoutMs: 50,
    });
    expect((await failure(d.generate(input))).code).toBe("timeout");
  });

  it.each<[string, ToolnexusErrorCode]>([
    ["a network failure", "provider:network"],
    ["an abort", "aborted"],
  ])("maps %s thrown by an injected fetch", async (_, code) => {
    const controller = new AbortController();
    const failing: typeof fetch = async () => {
      if (code === "aborted") controller.abort();
      throw new TypeError("fetch failed");
    };
    const d = createHttpDriver({
      baseUrl: "http://stub",
      style: "openai",
      model: "m",
      apiKey: "k",
      fetch: failing,
      retries: 0,
    });
    expect((await failure(d.generate({ ...input, signal: controller.signal }))).code).toBe(code);
  });
});

function firstDelta(style: WireStyle): string {
  return style === "openai"
    ? 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n'
    : 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n';
}

/** Makes the server hold the next request open until the client goes away. */
function holdUntilDisconnect() {
  let arrive!: () => void;
  let close!: () => void;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const closed = new Promise<void>((resolve) => {
    close = resolve;
  });
  handler = ({ signal }) => {
    arrive();
    return new Promise((resolve) => {
      signal.addEventListener("abort", () => {
        close();
        resolve({ text: "too late" });
      });
    });
  };
  return { arrived, closed };
}
