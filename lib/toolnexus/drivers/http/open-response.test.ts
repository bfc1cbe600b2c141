import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStubLlmServer, type StubLlmServer, type StubReply } from "../../testing";
import { failure } from "../../testing/failure";
import { type OpenResponseOptions, openResponse } from "./open-response";

let server: StubLlmServer;
let reply: StubReply = { text: "fine" };

beforeAll(async () => {
  server = await createStubLlmServer(() => reply);
});
afterAll(() => server.close());

const options = (): OpenResponseOptions => ({
  url: `${server.baseUrl("openai")}/chat/completions`,
  init: {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"model":"m","messages":[]}',
  },
  fetch: globalThis.fetch,
  timeoutMs: 5_000,
});

describe("openResponse", () => {
  it("hands over a 2xx response with its attempt still live", async () => {
    reply = { text: "fine" };
    const open = await openResponse(options());
    const body = (await open.response.json()) as { choices: Array<{ message: { content: string } }> };
    open.close();
    expect(body.choices[0]!.message.content).toBe("fine");
  });

  it("turns any other status into provider:http with the status, an excerpt and the Retry-After", async () => {
    server.requests.length = 0;
    reply = { status: 429, body: "busy", headers: { "retry-after": "2" } };
    const error = await failure(openResponse(options()));
    expect(error.code).toBe("provider:http");
    expect(error.status).toBe(429);
    expect(error.body).toBe("busy");
    expect(error.retryAfterMs).toBe(2000);
    expect(server.requests).toHaveLength(1);

    reply = { status: 503 };
    const plain = await failure(openResponse(options()));
    expect(plain.status).toBe(503);
    expect(plain.retryAfterMs).toBeUndefined();
  });

  it("reports a dropped connection as provider:network", async () => {
    reply = { drop: true };
    expect((await failure(openResponse(options()))).code).toBe("provider:network");
  });
});
