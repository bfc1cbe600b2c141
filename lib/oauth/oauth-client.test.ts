import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoProviderServer } from "./demo-provider-server";
import {
  buildAuthorizationUrl,
  callProviderApi,
  createPkcePair,
  exchangeAuthorizationCode,
  refreshTokenSet,
  revokeToken,
} from "./oauth-client";
import { getProviderConfig, loadProviderRegistry, type OAuthProviderConfig } from "./provider-registry";
import { completeDemoConsent } from "./testing/demo-consent-driver";

const redirectUri = "http://127.0.0.1:9/oauth/demo/callback";
let server: Awaited<ReturnType<typeof startDemoProviderServer>>;
let provider: OAuthProviderConfig;

beforeAll(async () => {
  server = await startDemoProviderServer({ port: 0, redirectUris: [redirectUri] });
  provider = getProviderConfig(
    loadProviderRegistry({ env: { OAUTH_DEMO_ISSUER: server.issuer }, demoMode: true }),
    "demo",
  );
});

afterAll(async () => {
  await server?.close();
});

async function authorize(decision: "allow" | "deny", state = "state-1") {
  const pkce = await createPkcePair();
  const url = await buildAuthorizationUrl({
    provider,
    redirectUri,
    state,
    codeChallenge: pkce.codeChallenge,
  });
  const callback = await completeDemoConsent({
    authorizationUrl: url.toString(),
    redirectPrefix: redirectUri,
    decision,
  });
  return { pkce, url, callback };
}

describe("PKCE", () => {
  it("derives an S256 challenge from a high-entropy verifier", async () => {
    const a = await createPkcePair();
    const b = await createPkcePair();
    expect(a.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    expect(a.codeChallenge).toBe(createHash("sha256").update(a.codeVerifier).digest("base64url"));
  });

  it("puts the challenge, never the verifier, in the authorization URL", async () => {
    const pkce = await createPkcePair();
    const url = await buildAuthorizationUrl({
      provider,
      redirectUri,
      state: "s",
      codeChallenge: pkce.codeChallenge,
    });
    expect(url.origin).toBe(server.issuer);
    expect(url.searchParams.get("code_challenge")).toBe(pkce.codeChallenge);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.toString()).not.toContain(pkce.codeVerifier);
    expect(url.searchParams.get("redirect_uri")).toBe(redirectUri);
  });
});

describe("against the demo provider", () => {
  it("exchanges a code, calls the API, refreshes, and sees a revoked token refused", async () => {
    const { pkce, callback } = await authorize("allow");
    expect(callback.searchParams.get("state")).toBe("state-1");
    const tokens = await exchangeAuthorizationCode({
      provider,
      callbackParams: callback.searchParams,
      expectedState: "state-1",
      redirectUri,
      codeVerifier: pkce.codeVerifier,
    });
    expect(tokens.scopes).toContain("balance:read");
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now());

    const balance = await callProviderApi({ provider, accessToken: tokens.accessToken, path: "api/balance" });
    expect(balance).toEqual({
      status: "ok",
      body: { account: "Dana Demo", amount: 1234.56, currency: "EUR" },
    });

    const refreshed = await refreshTokenSet({ provider, refreshToken: tokens.refreshToken! });
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(
      (await callProviderApi({ provider, accessToken: refreshed.accessToken, path: "api/balance" })).status,
    ).toBe("ok");

    expect(await revokeToken({ provider, token: refreshed.accessToken })).toBe(true);
    expect(
      await callProviderApi({ provider, accessToken: refreshed.accessToken, path: "api/balance" }),
    ).toEqual({
      status: "unauthorized",
    });
    expect(await callProviderApi({ provider, accessToken: "made-up", path: "api/balance" })).toEqual({
      status: "unauthorized",
    });
  });

  it("refuses the code with the wrong PKCE verifier", async () => {
    const { callback } = await authorize("allow");
    const other = await createPkcePair();
    await expect(
      exchangeAuthorizationCode({
        provider,
        callbackParams: callback.searchParams,
        expectedState: "state-1",
        redirectUri,
        codeVerifier: other.codeVerifier,
      }),
    ).rejects.toMatchObject({ code: "exchange:failed" });
  });

  it("refuses a callback whose state differs, and a code used twice", async () => {
    const { pkce, callback } = await authorize("allow");
    const exchange = (expectedState: string) =>
      exchangeAuthorizationCode({
        provider,
        callbackParams: callback.searchParams,
        expectedState,
        redirectUri,
        codeVerifier: pkce.codeVerifier,
      });
    await expect(exchange("another-state")).rejects.toMatchObject({ code: "exchange:failed" });
    await exchange("state-1");
    await expect(exchange("state-1")).rejects.toMatchObject({ code: "exchange:failed" });
  });

  it("requires PKCE at the provider", async () => {
    const url = new URL(`${server.issuer}/auth`);
    url.search = new URLSearchParams({
      client_id: provider.clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid balance:read",
      state: "x",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });

  it("reports a denial as access_denied", async () => {
    const { callback } = await authorize("deny", "state-2");
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe("state-2");
  });
});
