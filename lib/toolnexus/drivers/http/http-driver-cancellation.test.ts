import { describe, expect, it, vi } from "vitest";
import { drain } from "../../testing/drain";
import { failure } from "../../testing/failure";
import { quickRetryDriver } from "../../testing/quick-retry-driver";
import { useStubLlmServer } from "../../testing/use-stub-llm-server";
import type { ModelInput } from "../../types";
import type { HttpDriverOptions, WireStyle } from "./http-driver";

const stub = useStubLlmServer({ clearRequestsBeforeEach: true });
const input: ModelInput = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] };
const driver = (style: WireStyle, extra: Partial<HttpDriverOptions> = {}) =>
  quickRetryDriver(stub.server, style, extra);

describe.each(["openai", "anthropic"] as const)("HTTP driver errors, %s style", (style) => {
  it("aborts before sending when the signal is already aborted", async () => {
    stub.reply = () => ({ text: "never" });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(driver(style).generate({ ...input, signal: controller.signal }));
    expect(error.code).toBe("aborted");
    expect(stub.server.requests).toHaveLength(0);
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
    await onHandClock(async () => {
      const disconnected = holdUntilDisconnect();
      const call = failure(driver(style, { timeoutMs: 150, retries: 2 }).generate(input));
      // The call is in flight, at the server, before its time runs out.
      await disconnected.arrived;
      await vi.advanceTimersByTimeAsync(150);
      const error = await call;
      expect(error.code).toBe("timeout");
      await disconnected.closed;
      expect(stub.server.requests).toHaveLength(1);
    });
  });

  it("times out a reply whose body stalls after its headers, with the platform's fetch", async () => {
    // Headers and a first chunk arrive, then nothing: the body read itself must be bounded.
    stub.reply = () => ({ sseRaw: '{"choices":', keepOpen: true });
    const started = performance.now();
    const error = await failure(driver(style, { timeoutMs: 150, retries: 0 }).generate(input));
    expect(error.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("aborts a stream that is already delivering", async () => {
    stub.reply = () => ({ sseRaw: firstDelta(style), keepOpen: true });
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
    await onHandClock(async () => {
      stub.reply = () => ({ sseRaw: firstDelta(style), keepOpen: true });
      const parts: unknown[] = [];
      let delivered!: () => void;
      const first = new Promise<void>((resolve) => {
        delivered = resolve;
      });
      const stream = drain(driver(style, { timeoutMs: 150 }).stream(input), (part) => {
        parts.push(part);
        delivered();
      });
      const error = failure(stream);
      // A chunk arrived; from here on nothing does, and the stream's time runs out.
      await first;
      await vi.advanceTimersByTimeAsync(150);
      expect((await error).code).toBe("timeout");
      expect(parts).toEqual([{ type: "text", delta: "Hi" }]);
      expect(stub.server.requests).toHaveLength(1);
    });
  });
});

function firstDelta(style: WireStyle): string {
  return style === "openai"
    ? 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n'
    : 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n';
}

/**
 * Runs `test` with the timers on a clock that moves only when told, so a timeout counts from the
 * moment the test has seen what must come before it, however slowly the machine got there.
 * Sockets keep their own timers.
 */
async function onHandClock(test: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    await test();
  } finally {
    vi.useRealTimers();
  }
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
  stub.reply = ({ signal }) => {
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
