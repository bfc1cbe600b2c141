import { describe, expect, it } from "vitest";
import { checkActionOrigin } from "./action-origin";
import { checkRequestBody, MAX_BODY_BYTES } from "./request-body-check";

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

  it("passes well-formed actions, multipart forms and GETs", async () => {
    expect(await checkRequestBody(action({}, '[{"requestId":"r1"}]'))).toBeNull();
    expect(
      await checkRequestBody(action({ "content-type": "multipart/form-data; boundary=x" }, "--x--")),
    ).toBeNull();
    expect(await checkRequestBody(new Request("http://app.example/inbox"))).toBeNull();
  });
});
