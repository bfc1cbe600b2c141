import { describe, expect, it } from "vitest";
import type { ToolnexusErrorCode } from "../../errors";
import { createStubLlmServer, type StubHandler } from "../../testing";
import { drain } from "../../testing/drain";
import { failure } from "../../testing/failure";
import { quickRetryDriver } from "../../testing/quick-retry-driver";
import { useStubLlmServer } from "../../testing/use-stub-llm-server";
import type { ModelInput } from "../../types";
import { createHttpDriver, type HttpDriverOptions, type WireStyle } from "./http-driver";

const stub = useStubLlmServer({ clearRequestsBeforeEach: true });
const input: ModelInput = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] };
const driver = (style: WireStyle, extra: Partial<HttpDriverOptions> = {}) =>
  quickRetryDriver(stub.server, style, extra);

/** Replies from a list, one per request; the last entry repeats. */
function sequence(...replies: Array<ReturnType<StubHandler>>): StubHandler {
  let i = 0;
  return () => replies[Math.min(i++, replies.length - 1)]!;
}

describe.each(["openai", "anthropic"] as const)("HTTP driver errors, %s style", (style) => {
  it("reports a 4xx with its status and a body excerpt, without retrying", async () => {
    const detail = `invalid model: ${"x".repeat(1000)}`;
    stub.reply = () => ({ status: 400, body: { error: { message: detail } } });
    const error = await failure(driver(style).generate(input));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(400);
    expect(error.body).toContain("invalid model: xxx");
    expect(error.body!.length).toBe(500);
    expect(error.message).toContain(error.body);
    expect(stub.server.requests).toHaveLength(1);
  });

  it("retries a 5xx, then reports it once the retries are spent", async () => {
    stub.reply = () => ({ status: 503, body: "overloaded" });
    const error = await failure(driver(style, { retries: 2 }).generate(input));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(503);
    expect(error.body).toBe("overloaded");
    expect(stub.server.requests).toHaveLength(3);
  });

  it("retries a 429 after its Retry-After and then succeeds", async () => {
    stub.reply = sequence(
      { status: 429, body: "slow down", headers: { "retry-after": "0" } },
      { text: "after the wait" },
    );
    const turn = await driver(style).generate(input);
    expect(turn.text).toBe("after the wait");
    expect(stub.server.requests).toHaveLength(2);
  });

  it("retries a dropped connection and then succeeds", async () => {
    stub.reply = sequence({ drop: true }, { drop: true }, { text: "third time lucky" });
    const turn = await driver(style, { retries: 2 }).generate(input);
    expect(turn.text).toBe("third time lucky");
    expect(stub.server.requests).toHaveLength(3);
  });

  it("reports provider:network when every attempt is dropped", async () => {
    stub.reply = () => ({ drop: true });
    const error = await failure(driver(style, { retries: 1 }).generate(input));
    expect(error.code).toBe("provider:network");
    expect(stub.server.requests).toHaveLength(2);
  });

  it("reports a body that is not JSON, or not this format, as malformed", async () => {
    stub.reply = () => ({ status: 200, body: "<html>gateway</html>" });
    const notJson = await failure(driver(style).generate(input));
    expect(notJson.code).toBe("provider:malformed_response");
    expect(notJson.body).toBe("<html>gateway</html>");
    stub.reply = () => ({ status: 200, body: { result: "something else" } });
    expect((await failure(driver(style).generate(input))).code).toBe("provider:malformed_response");
    expect(stub.server.requests).toHaveLength(2);
  });

  it("reports a stream with an event that is not JSON as malformed SSE", async () => {
    stub.reply = () => ({ sseRaw: "data: {not json\n\n" });
    const error = await failure(drain(driver(style).stream(input)));
    expect(error.code).toBe("provider:malformed_sse");
    expect(error.body).toBe("{not json");
  });

  it("reports a stream that ends before its final event as malformed SSE, after the text it did get", async () => {
    stub.reply = () => ({
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
});

describe("HTTP driver errors, style-specific", () => {
  it("turns an Anthropic error event into provider:http", async () => {
    stub.reply = () => ({
      sseRaw:
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    });
    const error = await failure(drain(driver("anthropic").stream(input)));
    expect(error.code).toBe("provider:http");
    expect(error.body).toContain("overloaded_error");
  });

  it("turns an OpenAI error chunk into provider:http", async () => {
    stub.reply = () => ({ sseRaw: 'data: {"error":{"message":"context length exceeded"}}\n\n' });
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
