import { describe, expect, it } from "vitest";
import { isToolnexusError } from "./errors";
import { createInboxWaitFor, inboxIdempotencyKey } from "./inbox-wait-for";
import { pending } from "./pending";
import type { Request } from "./types";

// The real round trip (a real app, restarted, and a reviewer in the browser) is the browser
// journey e2e/api-inbox-wait-for.spec.ts; these pin the key and the retry rules.

const ask = (over: Partial<Request> = {}): Request => {
  const made = pending({ kind: "approval", prompt: "Deploy v1.4?", data: { schema: { type: "object" } } });
  return { ...(made.metadata!.pending as Request), ...over };
};

describe("the idempotency key of an inbox request", () => {
  it("survives a restart (a new generated id, a new deadline) and differs by scope and by question", () => {
    const key = inboxIdempotencyKey(ask(), "job 1");
    const restarted = ask({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect(restarted.id).not.toBe(ask().id);
    expect(inboxIdempotencyKey(restarted, "job 1")).toBe(key);
    expect(inboxIdempotencyKey(ask(), "job 2")).not.toBe(key);
    expect(inboxIdempotencyKey(ask({ prompt: "Deploy v1.5?" }), "job 1")).not.toBe(key);
    // A tool's own id is stable by design, so it is what the key is made of.
    expect(inboxIdempotencyKey(ask({ id: "deploy-812" }))).toBe(
      inboxIdempotencyKey(ask({ id: "deploy-812", prompt: "x" })),
    );
  });
});

type Step = (init: RequestInit, url: string) => Response | Promise<Response>;

function scripted(steps: Step[]) {
  const calls: { url: string; method: string; headers: Record<string, string> }[] = [];
  const fetchStandIn = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? "GET", headers: init.headers as Record<string, string> });
    const step = steps.shift();
    if (!step) throw new Error("no more steps");
    return step(init, url);
  }) as unknown as typeof fetch;
  return { fetch: fetchStandIn, calls };
}

const quick = { firstMs: 1, maxMs: 2, jitter: [1, 1] as const };

describe("createInboxWaitFor", () => {
  it("retries network failures and 5xx, then long-polls until the answer and returns it for the request", async () => {
    const open = { id: "req_1", status: "open" };
    const { fetch, calls } = scripted([
      () => {
        throw new TypeError("fetch failed");
      },
      () => new Response("", { status: 503 }),
      () => Response.json(open, { status: 201 }),
      () => Response.json(open),
      () => {
        throw new TypeError("socket hang up");
      },
      () =>
        Response.json({
          id: "req_1",
          status: "answered",
          answer: { id: "req_1", ok: true, data: { note: "go" } },
        }),
    ]);
    const retries: number[] = [];
    const waitFor = createInboxWaitFor({
      baseUrl: "http://inbox.test/",
      token: "tnx_secret",
      fetch,
      backoff: quick,
      onRetry: ({ attempt }) => retries.push(attempt),
    });
    const request = ask();
    expect(await waitFor(request)).toEqual({ id: request.id, ok: true, data: { note: "go" } });
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "POST http://inbox.test/api/v1/requests",
      "POST http://inbox.test/api/v1/requests",
      "POST http://inbox.test/api/v1/requests",
      "GET http://inbox.test/api/v1/requests/req_1?wait=30",
      "GET http://inbox.test/api/v1/requests/req_1?wait=30",
      "GET http://inbox.test/api/v1/requests/req_1?wait=30",
    ]);
    const keys = new Set(calls.filter((c) => c.method === "POST").map((c) => c.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    expect(calls.every((call) => call.headers.authorization === "Bearer tnx_secret")).toBe(true);
    expect(retries).toEqual([1, 2, 1]);
  });

  it("gives a decline, an expiry or a cancel back as ok: false with its reason", async () => {
    for (const reason of ["declined", "expired", "cancelled"] as const) {
      const status = reason === "declined" ? "answered" : reason;
      const { fetch } = scripted([
        () => Response.json({ id: "r", status, answer: { id: "r", ok: false, reason } }, { status: 201 }),
      ]);
      const request = ask();
      expect(await createInboxWaitFor({ baseUrl: "http://i", token: "t", fetch })(request)).toEqual({
        id: request.id,
        ok: false,
        reason,
      });
    }
  });

  it("does not retry what asking again cannot fix: the error says what the inbox refused", async () => {
    const { fetch, calls } = scripted([
      () =>
        Response.json({ code: "unauthorized:token", message: "Send a valid API token." }, { status: 401 }),
    ]);
    const error = await createInboxWaitFor({ baseUrl: "http://i", token: "t", fetch, backoff: quick })(
      ask(),
    ).catch((e: unknown) => e);
    expect(isToolnexusError(error, "provider:http")).toBe(true);
    expect((error as Error).message).toContain("401 unauthorized:token");
    expect(calls).toHaveLength(1);
  });

  it("stops waiting when its signal aborts", async () => {
    const controller = new AbortController();
    const { fetch } = scripted(
      Array.from({ length: 50 }, () => () => {
        throw new TypeError("fetch failed");
      }),
    );
    const waiting = createInboxWaitFor({
      baseUrl: "http://i",
      token: "t",
      fetch,
      signal: controller.signal,
      backoff: { firstMs: 50, maxMs: 50, jitter: [1, 1] },
    })(ask());
    controller.abort();
    expect(isToolnexusError(await waiting.catch((e: unknown) => e), "aborted")).toBe(true);
  });
});
