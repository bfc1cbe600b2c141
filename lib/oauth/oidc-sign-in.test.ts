import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthConfig } from "@/lib/auth/auth-config";
import { userFromSession } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase } from "@/lib/db/testing/test-database";
import { startDemoProviderServer } from "./demo-provider-server";
import { DEMO_CLIENT_ID } from "./provider-registry";
import { completeDemoConsent } from "./testing/demo-consent-driver";

// Sign-in with a generic OpenID Connect issuer, end to end: the app's next-auth handlers, a real
// authorization server on 127.0.0.1 (the demo provider), and the Prisma adapter on a real
// SQLite file storing the user and the linked account.

const ORIGIN = "http://localhost:3998";
const CALLBACK = `${ORIGIN}/api/auth/callback/oidc`;
const CLIENT_SECRET = "oidc-sign-in-test-secret";

let db: Db;
let cleanup: () => Promise<void>;
let issuerServer: Awaited<ReturnType<typeof startDemoProviderServer>>;
let nextAuth: ReturnType<typeof NextAuth>;

beforeAll(async () => {
  ({ db, drop: cleanup } = await createTestDatabase("sqlite"));
  issuerServer = await startDemoProviderServer({
    port: 0,
    redirectUris: [CALLBACK],
    clientSecret: CLIENT_SECRET,
  });
  const env = {
    AUTH_SECRET: "oidc-sign-in-test-auth-secret-0123456789",
    AUTH_OIDC_ISSUER: issuerServer.issuer,
    AUTH_OIDC_ID: DEMO_CLIENT_ID,
    AUTH_OIDC_SECRET: CLIENT_SECRET,
    AUTH_OIDC_NAME: "Demo Bank",
  };
  nextAuth = NextAuth(createAuthConfig({ db: () => db, env }));
});

afterAll(async () => {
  await issuerServer?.close();
  await cleanup?.();
});

class Jar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";", 1);
      const eq = pair!.indexOf("=");
      const value = pair!.slice(eq + 1);
      if (value === "") this.cookies.delete(pair!.slice(0, eq));
      else this.cookies.set(pair!.slice(0, eq), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

function appRequest(path: string, jar: Jar, init: { method?: string; body?: URLSearchParams } = {}) {
  return new NextRequest(`${ORIGIN}${path}`, {
    method: init.method ?? "GET",
    headers: {
      cookie: jar.header(),
      host: new URL(ORIGIN).host,
      "x-forwarded-proto": "http",
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    ...(init.body ? { body: init.body } : {}),
  });
}

async function signInWithIssuer(decision: "allow" | "deny"): Promise<{ jar: Jar; landing: string }> {
  const jar = new Jar();
  const csrf = await nextAuth.handlers.GET(appRequest("/api/auth/csrf", jar));
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };

  const start = await nextAuth.handlers.POST(
    appRequest("/api/auth/signin/oidc", jar, {
      method: "POST",
      body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/inbox` }),
    }),
  );
  jar.store(start);
  const authorizationUrl = start.headers.get("location") ?? "";
  expect(authorizationUrl.startsWith(issuerServer.issuer)).toBe(true);

  const callback = await completeDemoConsent({ authorizationUrl, redirectPrefix: CALLBACK, decision });
  const done = await nextAuth.handlers.GET(appRequest(`${callback.pathname}${callback.search}`, jar));
  jar.store(done);
  return { jar, landing: done.headers.get("location") ?? "" };
}

async function sessionUser(jar: Jar) {
  const response = await nextAuth.handlers.GET(appRequest("/api/auth/session", jar));
  return userFromSession(await response.json());
}

describe("sign-in with a generic OIDC issuer", () => {
  it("offers only the configured issuer when demo mode is off", async () => {
    const response = await nextAuth.handlers.GET(appRequest("/api/auth/providers", new Jar()));
    const providers = (await response.json()) as Record<string, { name: string; type: string }>;
    expect(Object.keys(providers)).toEqual(["oidc"]);
    expect(providers.oidc).toMatchObject({ name: "Demo Bank", type: "oidc" });
  });

  it("creates the user and linked account on first sign-in, with the user role", async () => {
    const { jar, landing } = await signInWithIssuer("allow");
    expect(landing).toBe(`${ORIGIN}/inbox`);
    const user = await sessionUser(jar);
    expect(user).toMatchObject({ name: "Dana Demo", role: "user" });

    const account = await db.account.findUniqueOrThrow({
      where: { provider_providerAccountId: { provider: "oidc", providerAccountId: "demo" } },
    });
    expect(account.userId).toBe(user.id);
  });

  it("signs the same person in again and reads the role from their stored row", async () => {
    const account = await db.account.findUniqueOrThrow({
      where: { provider_providerAccountId: { provider: "oidc", providerAccountId: "demo" } },
    });
    await db.user.update({ where: { id: account.userId }, data: { role: "reviewer" } });

    const { jar } = await signInWithIssuer("allow");
    expect(await sessionUser(jar)).toMatchObject({ id: account.userId, role: "reviewer" });
    expect(await db.user.count()).toBe(1);
  });

  it("issues no session when the person denies consent", async () => {
    const { jar, landing } = await signInWithIssuer("deny");
    expect(landing).toBe(`${ORIGIN}/login?error=OAuthCallbackError`);
    const response = await nextAuth.handlers.GET(appRequest("/api/auth/session", jar));
    expect(await response.json()).toBeNull();
  });
});
