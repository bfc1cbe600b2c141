import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isToolnexusError, type ToolnexusError } from "../../errors";
import { createStubLlmServer, type StubHandler, type StubLlmServer, type StubReply } from "../../testing";
import { backoffMs, type FetchWithRetryOptions, fetchWithRetry, retryAfterMs } from "./fetch-with-retry";

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

function options(sleeps: number[], extra: Partial<FetchWithRetryOptions> = {}): FetchWithRetryOptions {
  return {
    url: `${server.baseUrl("openai")}/chat/completions`,
    init: {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"model":"m","messages":[]}',
    },
    fetch: globalThis.fetch,
    retries: 3,
    retryBaseMs: 100,
    timeoutMs: 5_000,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<ToolnexusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isToolnexusError(error)) throw new Error(`expected a ToolnexusError, got ${String(error)}`);
  return error;
}

describe("fetchWithRetry", () => {
  it("waits exactly the Retry-After seconds before retrying a 429", async () => {
    replies = [{ status: 429, body: "busy", headers: { "retry-after": "2" } }, { text: "fine" }];
    const sleeps: number[] = [];
    const open = await fetchWithRetry(options(sleeps));
    const body = (await open.response.json()) as { choices: Array<{ message: { content: string } }> };
    open.close();
    expect(body.choices[0]!.message.content).toBe("fine");
    expect(sleeps).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
  });

  it("backs off exponentially on 5xx when there is no Retry-After", async () => {
    replies = [{ status: 500 }, { status: 502 }, { status: 503 }, { text: "up again" }];
    const sleeps: number[] = [];
    const open = await fetchWithRetry(options(sleeps));
    open.close();
    expect(open.response.status).toBe(200);
    expect(sleeps).toEqual([75, 150, 300]);
  });

  it("falls back to its own backoff for an HTTP-date Retry-After", async () => {
    replies = [{ status: 429, headers: { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" } }, { text: "ok" }];
    const sleeps: number[] = [];
    (await fetchWithRetry(options(sleeps))).close();
    expect(sleeps).toEqual([75]);
  });

  it("reports instead of waiting when Retry-After asks for more than a minute", async () => {
    replies = [{ status: 429, body: "quota", headers: { "retry-after": "3600" } }, { text: "ok" }];
    const sleeps: number[] = [];
    const error = await rejection(fetchWithRetry(options(sleeps)));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(429);
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 422])("does not retry a %i", async (status) => {
    replies = [{ status, body: { error: "no" } }, { text: "never reached" }];
    const sleeps: number[] = [];
    const error = await rejection(fetchWithRetry(options(sleeps)));
    expect(error.status).toBe(status);
    expect(error.body).toBe('{"error":"no"}');
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("stops after the configured number of retries", async () => {
    replies = [{ status: 500, body: "down" }];
    const sleeps: number[] = [];
    const error = await rejection(fetchWithRetry(options(sleeps, { retries: 1 })));
    expect(error.status).toBe(500);
    expect(sleeps).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("stops waiting between attempts when the caller aborts", async () => {
    const controller = new AbortController();
    onRequest = () => {
      // Abort once the first attempt has been answered, while the long backoff is running.
      setImmediate(() => controller.abort());
      return { status: 503 };
    };
    const error = await rejection(
      fetchWithRetry(options([], { sleep: undefined, retryBaseMs: 60_000, signal: controller.signal })),
    );
    expect(error.code).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });
});

describe("backoffMs", () => {
  it("doubles per attempt, jitters within the upper half of the step and is capped", () => {
    expect(backoffMs(100, 0, () => 0)).toBe(50);
    expect(backoffMs(100, 0, () => 1)).toBe(100);
    expect(backoffMs(100, 3, () => 0)).toBe(400);
    expect(backoffMs(100, 3, () => 1)).toBe(800);
    expect(backoffMs(1000, 20, () => 1)).toBe(30_000);
  });
});

describe("retryAfterMs", () => {
  it("reads delta-seconds only", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(" 1.5 ")).toBe(1500);
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("-1")).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
