import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ToolnexusError } from "../errors";
import { createStubLlmServer, type StubHandler, type StubLlmServer, type StubReply } from "../testing";
import { drain } from "../testing/drain";
import { failure } from "../testing/failure";
import type { ModelDriver, ModelInput, ModelStreamPart } from "../types";
import { createHttpDriver } from "./http/http-driver";
import { type RetrySettings, retryAfterMs, retrySettings, withRetries } from "./with-retries";

let server: StubLlmServer;
let replies: StubReply[] = [];
let onRequest: StubHandler | undefined;

beforeAll(async () => {
  server = await createStubLlmServer((request) => {
    if (onRequest) return onRequest(request);
    return replies.length > 1 ? replies.shift()! : replies[0]!;
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  onRequest = undefined;
});

const input: ModelInput = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [] };

/** Single attempts over real HTTP, retried by the wrapper under test with observable sleeps. */
function retrying(sleeps: number[], extra: Partial<RetrySettings> = {}): ModelDriver {
  const attempts = createHttpDriver({
    baseUrl: server.baseUrl("openai"),
    style: "openai",
    model: "m",
    apiKey: "k",
    retries: 0,
  });
  return withRetries(attempts, {
    retries: 3,
    retryBaseMs: 100,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
}

describe("withRetries around HTTP attempts", () => {
  it("waits exactly the Retry-After seconds before retrying a 429", async () => {
    replies = [{ status: 429, body: "busy", headers: { "retry-after": "2" } }, { text: "fine" }];
    const sleeps: number[] = [];
    const turn = await retrying(sleeps).generate(input);
    expect(turn.text).toBe("fine");
    expect(sleeps).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
  });

  it("backs off exponentially on 5xx when there is no Retry-After", async () => {
    replies = [{ status: 500 }, { status: 502 }, { status: 503 }, { text: "up again" }];
    const sleeps: number[] = [];
    expect((await retrying(sleeps).generate(input)).text).toBe("up again");
    // The step doubles from retryBaseMs, plus up to 100 ms of jitter (half of it here).
    expect(sleeps).toEqual([150, 250, 450]);
  });

  it("falls back to its own backoff for an HTTP-date Retry-After", async () => {
    replies = [{ status: 429, headers: { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" } }, { text: "ok" }];
    const sleeps: number[] = [];
    await retrying(sleeps).generate(input);
    expect(sleeps).toEqual([150]);
  });

  it("reports instead of waiting when Retry-After asks for more than a minute", async () => {
    replies = [{ status: 429, body: "quota", headers: { "retry-after": "3600" } }, { text: "ok" }];
    const sleeps: number[] = [];
    const error = await failure(retrying(sleeps).generate(input));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("lets onError fail a retryable 429 at once, or retry a 400 until the retries are spent", async () => {
    const seen: unknown[] = [];
    replies = [{ status: 429 }, { text: "never reached" }];
    const failing = retrying([], {
      onError: (info) => {
        seen.push(info);
        return "fail";
      },
    });
    expect((await failure(failing.generate(input))).status).toBe(429);
    expect(seen).toMatchObject([{ status: 429, attempt: 0, retryable: true }]);
    expect(server.requests).toHaveLength(1);
    replies = [{ status: 400 }, { status: 400 }, { status: 400 }, { text: "never reached" }];
    const sleeps: number[] = [];
    const retryingAll = retrying(sleeps, { retries: 2, onError: () => "retry" });
    expect((await failure(retryingAll.generate(input))).message).toMatch(/^LLM 400: /);
    expect(sleeps).toEqual([150, 250]);
    expect(server.requests).toHaveLength(4);
  });

  it.each([400, 401, 403, 404, 422])("does not retry a %i", async (status) => {
    replies = [{ status, body: { error: "no" } }, { text: "never reached" }];
    const sleeps: number[] = [];
    const error = await failure(retrying(sleeps).generate(input));
    expect(error.status).toBe(status);
    expect(error.body).toBe('{"error":"no"}');
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("stops after the configured number of retries", async () => {
    replies = [{ status: 500, body: "down" }];
    const sleeps: number[] = [];
    const error = await failure(retrying(sleeps, { retries: 1 }).generate(input));
    expect(error.status).toBe(500);
    expect(sleeps).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a stream that failed before it started", async () => {
    replies = [{ drop: true }, { text: "streamed" }];
    const sleeps: number[] = [];
    const parts: unknown[] = [];
    await drain(retrying(sleeps).stream(input), (part) => parts.push(part));
    expect(parts.at(-1)).toMatchObject({ type: "turn", turn: { text: "streamed" } });
    expect(sleeps).toEqual([150]);
    expect(server.requests).toHaveLength(2);
  });

  it("stops waiting between attempts when the caller aborts", async () => {
    const controller = new AbortController();
    onRequest = () => {
      // Abort once the first attempt has been answered, while the long backoff is running.
      setImmediate(() => controller.abort());
      return { status: 503 };
    };
    const error = await failure(
      retrying([], { sleep: undefined, retryBaseMs: 60_000 }).generate({
        ...input,
        signal: controller.signal,
      }),
    );
    expect(error.code).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });
});

describe("withRetries around any driver", () => {
  const overloaded = () => new ToolnexusError("provider:http", "overloaded", { status: 503 });
  const turn = {
    text: "done",
    toolCalls: [],
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };

  it("does not retry a stream once it has yielded a part: the text cannot be taken back", async () => {
    let calls = 0;
    const flaky: ModelDriver = {
      model: "m",
      generate: async () => turn,
      async *stream(): AsyncGenerator<ModelStreamPart> {
        calls += 1;
        yield { type: "text", delta: "half a sen" };
        throw overloaded();
      },
    };
    const sleeps: number[] = [];
    const error = await failure(
      drain(
        withRetries(flaky, { retries: 3, retryBaseMs: 1, sleep: async (ms) => void sleeps.push(ms) }).stream(
          input,
        ),
      ),
    );
    expect(error.status).toBe(503);
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("leaves errors that are not the provider's alone", async () => {
    let calls = 0;
    const broken: ModelDriver = {
      model: "m",
      generate: async () => {
        calls += 1;
        throw new Error("a bug in the driver");
      },
      stream: () => {
        throw new Error("not called");
      },
    };
    await expect(withRetries(broken, { retries: 3, retryBaseMs: 1 }).generate(input)).rejects.toThrow(
      "a bug in the driver",
    );
    expect(calls).toBe(1);
  });
});

describe("retrySettings", () => {
  it("defaults to two retries from a 500 ms step and refuses bad values", async () => {
    expect(retrySettings()).toEqual({ retries: 2, retryBaseMs: 500 });
    expect(() => retrySettings({ onError: "retry" as never })).toThrow("onError must be a function");
    expect(() => retrySettings({ retries: 1.5 })).toThrow("retries must be a non-negative integer");
    expect(() => retrySettings({ retries: -1 })).toThrow("retries must be a non-negative integer");
    expect(() => retrySettings({ retryBaseMs: Number.NaN })).toThrow(
      "retryBaseMs must be a non-negative number",
    );
  });
});

describe("retryAfterMs", () => {
  it("reads whole delay-seconds only, up to 2^31 - 1", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(" 7 ")).toBe(7000);
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("2147483647")).toBe(2_147_483_647_000);
    expect(retryAfterMs("2147483648")).toBeUndefined();
    expect(retryAfterMs("99999999999999999999")).toBeUndefined();
    expect(retryAfterMs(" 1.5 ")).toBeUndefined();
    expect(retryAfterMs("+1")).toBeUndefined();
    expect(retryAfterMs("1e3")).toBeUndefined();
    expect(retryAfterMs(" ")).toBeUndefined();
    expect(retryAfterMs("-1")).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
