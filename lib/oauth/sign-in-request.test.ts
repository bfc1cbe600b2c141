import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { getProviderConfig, loadProviderRegistry } from "./provider-registry";
import { signInRequest, signInRequestId } from "./sign-in-request";

const github = getProviderConfig(
  loadProviderRegistry({
    env: { OAUTH_PROVIDERS: "github", OAUTH_GITHUB_CLIENT_ID: "id", OAUTH_GITHUB_CLIENT_SECRET: "s" },
    demoMode: false,
  }),
  "github",
);

describe("sign-in requests", () => {
  it("derive a stable id from the call and the provider", () => {
    expect(signInRequestId("run-1:call-1", "github")).toBe(signInRequestId("run-1:call-1", "github"));
    expect(signInRequestId("run-1:call-1", "github")).toMatch(/^auth-[0-9a-f]{24}$/);
    expect(signInRequestId("run-1:call-2", "github")).not.toBe(signInRequestId("run-1:call-1", "github"));
    expect(signInRequestId("run-1:call-1", "demo")).not.toBe(signInRequestId("run-1:call-1", "github"));
    expect(signInRequestId(undefined, "github")).not.toBe(signInRequestId(undefined, "github"));
  });

  it("link to the app's start route and describe the provider without secrets", () => {
    const result = signInRequest({
      appUrl: "https://app.example",
      provider: github,
      prompt: "Sign in to GitHub to continue.",
      idempotencyKey: "run-1:call-1",
      expiresAt: "2030-01-01T00:00:00.000Z",
    });
    const request = pendingOf(result)!;
    expect(request).toEqual({
      id: signInRequestId("run-1:call-1", "github"),
      kind: "authorization",
      prompt: "Sign in to GitHub to continue.",
      url: `https://app.example/oauth/github/start?request=${request.id}`,
      data: { provider: "github", providerLabel: "GitHub", host: "github.com", scopes: ["read:user"] },
      expiresAt: "2030-01-01T00:00:00.000Z",
    });
    expect(result.output).toBe(`Sign in to GitHub to continue.\n${request.url}`);
    expect(JSON.stringify(result)).not.toContain('"s"');
  });
});
