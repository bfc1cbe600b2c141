import { describe, expect, it } from "vitest";
import { checkActionOrigin } from "./action-origin";
import { MAX_BODY_BYTES } from "./body-limit.mjs";
import { checkRequestBody } from "./request-body-check";

function action(headers: Record<string, string>, body = "[]"): Request {
  return new Request("http://app.example/inbox", {
    method: "POST",
    headers: { "next-action": "abc", "content-type": "text/plain;charset=UTF-8", ...headers },
    body,
  });
}

describe("checkActionOrigin", () => {
  it("refuses an evil Origin even with a matching X-Forwarded-Host when no proxy is configured", () => {
    const request = action({
      origin: "http://evil.example",
      host: "app.example",
      "x-forwarded-host": "evil.example",
    });
    expect(checkActionOrigin(request, {})?.code).toBe("forbidden:origin");
  });

  it("believes X-Forwarded-Host only with configured proxies", () => {
    const request = action({
      origin: "https://public.example",
      host: "app:3000",
      "x-forwarded-host": "public.example",
    });
    expect(checkActionOrigin(request, {})?.code).toBe("forbidden:origin");
    expect(checkActionOrigin(request, { TOOLNEXUS_TRUSTED_PROXIES: "10.0.0.1" })).toBeNull();
  });

  it("accepts the app's own origin, by Host or by the configured URL, and refuses a missing one", () => {
    expect(checkActionOrigin(action({ origin: "http://app.example", host: "app.example" }), {})).toBeNull();
    expect(
      checkActionOrigin(action({ origin: "https://tn.example", host: "10.0.0.5:3000" }), {
        TOOLNEXUS_APP_URL: "https://tn.example",
      }),
    ).toBeNull();
    expect(checkActionOrigin(action({ host: "app.example" }), {})?.code).toBe("forbidden:origin");
  });

  it("leaves everything that is not a server action alone", () => {
    expect(
      checkActionOrigin(new Request("http://app.example/inbox", { headers: { origin: "http://evil" } })),
    ).toBeNull();
  });
});

describe("checkRequestBody", () => {
  it("refuses a body over 1 MB by its declared length, with a 413 saying the limit", async () => {
    const request = new Request("http://app.example/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-length": String(MAX_BODY_BYTES + 1) },
      body: "x",
    });
    const refused = await checkRequestBody(request);
    expect(refused?.status).toBe(413);
    expect(refused?.message).toBe("The request body is larger than the 1 MB limit.");
  });

  it("refuses an action body over 1 MB that declares no length", async () => {
    const refused = await checkRequestBody(action({}, JSON.stringify(["a".repeat(MAX_BODY_BYTES)])));
    expect(refused?.code).toBe("bad_request:body_too_large");
  });

  it("refuses malformed JSON with a 400 that says so", async () => {
    const refused = await checkRequestBody(action({}, '[{"requestId": '));
    expect(refused?.status).toBe(400);
    expect(refused?.message).toMatch(/^The request body is not valid JSON \(.+\)\.$/);
  });

  it("counts every body while reading it, not only actions': a chunked sign-in form over 1 MB is 413", async () => {
    const piece = new TextEncoder().encode(`password=${"x".repeat(64 * 1024)}`);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      // 5 MB in all: a check that reads everything fails the assertions below instead of hanging.
      pull(controller) {
        if (pulled >= 5 * 1024 * 1024) return controller.close();
        pulled += piece.length;
        controller.enqueue(piece);
      },
    });
    const request = new Request("http://app.example/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(await checkRequestBody(request)).toEqual({
      code: "bad_request:body_too_large",
      status: 413,
      message: "The request body is larger than the 1 MB limit.",
      issues: [],
    });
    expect(pulled).toBeLessThan(MAX_BODY_BYTES + 4 * piece.length);
  });

  it("refuses an action body with a repeated key or nested past 64 levels, naming the path", async () => {
    expect(await checkRequestBody(action({}, '[{"requestId":"r1","requestId":"r2"}]'))).toEqual({
      code: "bad_request:input",
      status: 400,
      message: 'The request body repeats the key "requestId" in one object (at /0/requestId).',
      issues: [{ path: "/0/requestId", message: "repeats a key of the same object" }],
    });
    const deep = await checkRequestBody(action({}, `[${"[".repeat(2_000)}${"]".repeat(2_000)}]`));
    expect(deep?.issues).toEqual([
      { path: `/${Array(64).fill("0").join("/")}`, message: "is nested deeper than 64 levels" },
    ]);
  });

  it("passes well-formed actions, multipart forms and GETs", async () => {
    expect(await checkRequestBody(action({}, '[{"requestId":"r1"}]'))).toBeNull();
    expect(
      await checkRequestBody(action({ "content-type": "multipart/form-data; boundary=x" }, "--x--")),
    ).toBeNull();
    expect(await checkRequestBody(new Request("http://app.example/inbox"))).toBeNull();
  });
});
