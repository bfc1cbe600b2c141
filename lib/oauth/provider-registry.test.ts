import { thrownCode } from "toolnexus/testing";
import { describe, expect, it } from "vitest";
import { getProviderConfig, loadProviderRegistry, providerHost } from "./provider-registry";

describe("provider registry", () => {
  it("has only the demo provider in demo mode with no configuration", async () => {
    const registry = loadProviderRegistry({ env: {}, demoMode: true });
    expect([...registry.keys()]).toEqual(["demo"]);
    const demo = getProviderConfig(registry, "demo");
    expect(demo.endpoints).toEqual({ kind: "discovery", issuer: "http://localhost:3001" });
    expect(demo.apiBase).toBe("http://localhost:3001");
    expect(demo.scopes).toContain("balance:read");
    expect(demo.allowInsecureRequests).toBe(true);
    expect(providerHost(demo)).toBe("localhost:3001");
  });

  it("has no providers outside demo mode unless configured", async () => {
    expect(loadProviderRegistry({ env: {}, demoMode: false }).size).toBe(0);
    expect(
      await thrownCode(() => getProviderConfig(loadProviderRegistry({ env: {}, demoMode: false }), "demo")),
    ).toBe("provider:unknown");
  });

  it("fills GitHub's endpoints from the preset", async () => {
    const registry = loadProviderRegistry({
      env: { OAUTH_PROVIDERS: "github", OAUTH_GITHUB_CLIENT_ID: "id", OAUTH_GITHUB_CLIENT_SECRET: "secret" },
      demoMode: false,
    });
    const github = getProviderConfig(registry, "github");
    expect(github.endpoints).toMatchObject({
      kind: "static",
      authorizationEndpoint: "https://github.com/login/oauth/authorize",
      tokenEndpoint: "https://github.com/login/oauth/access_token",
    });
    expect(github.tokenAuth).toBe("client_secret_post");
    expect(github.allowInsecureRequests).toBe(false);
    expect(providerHost(github)).toBe("github.com");
  });

  it("reads a generic OIDC issuer with custom scopes and API base", async () => {
    const registry = loadProviderRegistry({
      env: {
        OAUTH_PROVIDERS: "demo, acme-id",
        OAUTH_ACME_ID_ISSUER: "https://id.acme.test/",
        OAUTH_ACME_ID_CLIENT_ID: "cid",
        OAUTH_ACME_ID_CLIENT_SECRET: "cs",
        OAUTH_ACME_ID_SCOPES: "openid, profile email",
        OAUTH_ACME_ID_API_BASE: "https://api.acme.test",
        OAUTH_ACME_ID_LABEL: "Acme",
      },
      demoMode: false,
    });
    expect([...registry.keys()]).toEqual(["demo", "acme-id"]);
    expect(getProviderConfig(registry, "acme-id")).toMatchObject({
      label: "Acme",
      endpoints: { kind: "discovery", issuer: "https://id.acme.test" },
      scopes: ["openid", "profile", "email"],
      tokenAuth: "client_secret_basic",
      apiBase: "https://api.acme.test",
    });
  });

  it("rejects incomplete or unsafe configuration", async () => {
    const load = (env: Record<string, string>) => () => loadProviderRegistry({ env, demoMode: false });
    expect(await thrownCode(load({ OAUTH_PROVIDERS: "acme", OAUTH_ACME_CLIENT_ID: "x" }))).toBe(
      "config:invalid",
    );
    expect(
      await thrownCode(
        load({
          OAUTH_PROVIDERS: "acme",
          OAUTH_ACME_CLIENT_ID: "x",
          OAUTH_ACME_CLIENT_SECRET: "y",
          OAUTH_ACME_AUTHORIZATION_URL: "https://a.test/authorize",
        }),
      ),
    ).toBe("config:invalid");
    expect(
      await thrownCode(
        load({
          OAUTH_PROVIDERS: "acme",
          OAUTH_ACME_ISSUER: "http://id.acme.test",
          OAUTH_ACME_CLIENT_ID: "x",
          OAUTH_ACME_CLIENT_SECRET: "y",
        }),
      ),
    ).toBe("config:invalid");
    expect(
      await thrownCode(
        load({
          OAUTH_PROVIDERS: "acme",
          OAUTH_ACME_ISSUER: "https://id.acme.test",
          OAUTH_ACME_CLIENT_ID: "x",
          OAUTH_ACME_TOKEN_AUTH: "client_secret_post",
        }),
      ),
    ).toBe("config:invalid");
    expect(await thrownCode(load({ OAUTH_PROVIDERS: "Bad_Name!" }))).toBe("config:invalid");
  });

  it("allows a public client with token auth none", async () => {
    const registry = loadProviderRegistry({
      env: {
        OAUTH_PROVIDERS: "pub",
        OAUTH_PUB_ISSUER: "https://id.pub.test",
        OAUTH_PUB_CLIENT_ID: "x",
        OAUTH_PUB_TOKEN_AUTH: "none",
      },
      demoMode: false,
    });
    expect(getProviderConfig(registry, "pub").tokenAuth).toBe("none");
  });
});
