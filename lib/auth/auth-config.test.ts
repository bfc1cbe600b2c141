import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase } from "@/lib/db/testing/test-database";
import { upsertUserByEmail } from "@/lib/db/users";
import { isAppError } from "@/lib/errors";
import { createAuthConfig, listOAuthProviders } from "./auth-config";
import { ensureRole } from "./guards";
import { userFromSession } from "./session-user";
import { hashPassword } from "./verify-credentials";

// The real next-auth request handlers with the app's configuration and a real SQLite file:
// sign in through the Credentials endpoint, then read the session the way `requireUser` does.

const ORIGIN = "http://localhost:3999";
const env = { AUTH_SECRET: "integration-test-secret-0123456789abcdef", TOOLNEXUS_DEMO: "1" };

let db: Db;
let cleanup: () => Promise<void>;
let nextAuth: ReturnType<typeof NextAuth>;

beforeAll(async () => {
  ({ db, drop: cleanup } = await createTestDatabase("sqlite"));
  const passwordHash = await hashPassword("correct horse");
  await upsertUserByEmail({ db, email: "Rita@Example.test", name: "Rita", role: "reviewer", passwordHash });
  await upsertUserByEmail({ db, email: "al@example.test", name: "Al", role: "user", passwordHash });
  nextAuth = NextAuth(createAuthConfig({ db: () => db, env }));
});

afterAll(async () => {
  await cleanup();
});

function cookieHeader(response: Response, previous = ""): string {
  const jar = new Map(
    previous ? previous.split("; ").map((pair) => pair.split("=", 2) as [string, string]) : [],
  );
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(";", 1);
    const index = pair!.indexOf("=");
    jar.set(pair!.slice(0, index), pair!.slice(index + 1));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

async function signIn(email: string, password: string): Promise<{ response: Response; cookies: string }> {
  const csrf = await nextAuth.handlers.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  let cookies = cookieHeader(csrf);
  const response = await nextAuth.handlers.POST(
    new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${ORIGIN}/chat` }),
    }),
  );
  cookies = cookieHeader(response, cookies);
  return { response, cookies };
}

/** What `requireUser()` does, with the request handed in instead of read from Next's context. */
async function requireUserFor(cookies: string) {
  const handler = nextAuth.auth((request) => {
    try {
      return Response.json({ user: userFromSession(request.auth) });
    } catch (error) {
      if (isAppError(error)) return Response.json({ code: error.code }, { status: error.status });
      throw error;
    }
  });
  const response = (await handler(
    new NextRequest(`${ORIGIN}/api/probe`, {
      // As Next's server sets them; next-auth derives the session URL and cookie names from these.
      headers: { cookie: cookies, host: new URL(ORIGIN).host, "x-forwarded-proto": "http" },
    }),
    {
      params: Promise.resolve({}),
    },
  )) as Response;
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("sign-in with the app's next-auth configuration", () => {
  it("signs a demo account in (email case-insensitive) and puts id and role in the session", async () => {
    const { response, cookies } = await signIn("rita@example.test", "correct horse");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/chat`);
    expect(cookies).toMatch(/authjs\.session-token=/);

    const { status, body } = await requireUserFor(cookies);
    expect(status).toBe(200);
    const stored = await db.user.findUniqueOrThrow({ where: { email: "rita@example.test" } });
    expect(body.user).toEqual({ id: stored.id, email: "rita@example.test", name: "Rita", role: "reviewer" });
    expect(ensureRole(body.user, "reviewer").id).toBe(stored.id);
  });

  it("refuses a wrong password and an unknown email without issuing a session", async () => {
    for (const [email, password] of [
      ["rita@example.test", "wrong"],
      ["nobody@example.test", "correct horse"],
      ["not-an-email", "correct horse"],
    ] as const) {
      const { response, cookies } = await signIn(email, password);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toContain("/login?error=CredentialsSignin");
      expect(cookies).not.toMatch(/authjs\.session-token=/);
    }
  });

  it("answers 401 without a session and with a forged one", async () => {
    expect(await requireUserFor("")).toEqual({ status: 401, body: { code: "unauthorized:session" } });
    const forged = await requireUserFor(
      "authjs.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2In0.bad.bad.bad.bad",
    );
    expect(forged).toEqual({ status: 401, body: { code: "unauthorized:session" } });
  });

  it("keeps a user's role in later requests and refuses a higher one", async () => {
    const { cookies } = await signIn("al@example.test", "correct horse");
    const { body } = await requireUserFor(cookies);
    expect(body.user.role).toBe("user");
    expect(() => ensureRole(body.user, "reviewer")).toThrowError(/role does not allow/);
  });
});

describe("a session follows the user row, not the token", () => {
  it("applies a role change on the next request, both ways", async () => {
    await upsertUserByEmail({
      db,
      email: "sam@example.test",
      name: "Sam",
      role: "user",
      passwordHash: await hashPassword("pw-sam-123"),
    });
    const { cookies } = await signIn("sam@example.test", "pw-sam-123");
    expect((await requireUserFor(cookies)).body.user.role).toBe("user");

    await db.user.update({ where: { email: "sam@example.test" }, data: { role: "reviewer" } });
    expect((await requireUserFor(cookies)).body.user.role).toBe("reviewer");

    await db.user.update({ where: { email: "sam@example.test" }, data: { role: "user" } });
    const demoted = await requireUserFor(cookies);
    expect(demoted.body.user.role).toBe("user");
    expect(() => ensureRole(demoted.body.user, "reviewer")).toThrowError(/role does not allow/);
  });

  it("ends the session of a deleted account", async () => {
    await upsertUserByEmail({
      db,
      email: "gone@example.test",
      name: "Gone",
      role: "reviewer",
      passwordHash: await hashPassword("pw-gone-123"),
    });
    const { cookies } = await signIn("gone@example.test", "pw-gone-123");
    expect((await requireUserFor(cookies)).status).toBe(200);

    await db.user.delete({ where: { email: "gone@example.test" } });
    expect(await requireUserFor(cookies)).toEqual({ status: 401, body: { code: "unauthorized:session" } });
  });
});

async function signOut(cookies: string): Promise<Response> {
  const csrf = await nextAuth.handlers.GET(
    new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: { cookie: cookies } }),
  );
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return nextAuth.handlers.POST(
    new NextRequest(`${ORIGIN}/api/auth/signout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(csrf, cookies) },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/login` }),
    }),
  );
}

describe("signing out revokes the session token", () => {
  it("refuses the old cookie after sign-out, while a new sign-in works", async () => {
    await upsertUserByEmail({
      db,
      email: "out@example.test",
      name: "Out",
      role: "user",
      passwordHash: await hashPassword("pw-out-123"),
    });
    const { cookies } = await signIn("out@example.test", "pw-out-123");
    expect((await requireUserFor(cookies)).status).toBe(200);

    const response = await signOut(cookies);
    expect(response.status).toBe(302);
    // The browser's cookie is cleared, but a copy of it (the old header) must not work either.
    expect(await requireUserFor(cookies)).toEqual({ status: 401, body: { code: "unauthorized:session" } });

    const again = await signIn("out@example.test", "pw-out-123");
    expect((await requireUserFor(again.cookies)).status).toBe(200);
    expect(await requireUserFor(cookies)).toEqual({ status: 401, body: { code: "unauthorized:session" } });
  });

  it("ends every session of a user whose version is raised (sign out everywhere)", async () => {
    await upsertUserByEmail({
      db,
      email: "many@example.test",
      name: "Many",
      role: "user",
      passwordHash: await hashPassword("pw-many-123"),
    });
    const first = await signIn("many@example.test", "pw-many-123");
    const second = await signIn("many@example.test", "pw-many-123");
    expect((await requireUserFor(first.cookies)).status).toBe(200);
    expect((await requireUserFor(second.cookies)).status).toBe(200);

    await db.user.update({
      where: { email: "many@example.test" },
      data: { sessionVersion: { increment: 1 } },
    });
    expect((await requireUserFor(first.cookies)).status).toBe(401);
    expect((await requireUserFor(second.cookies)).status).toBe(401);
  });
});

describe("cookies follow the configured app URL", () => {
  it("marks every cookie Secure when the app URL is HTTPS, even if the request arrived as HTTP", async () => {
    const secure = NextAuth(
      createAuthConfig({ db: () => db, env: { ...env, TOOLNEXUS_APP_URL: "https://app.example" } }),
    );
    const csrf = await secure.handlers.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await secure.handlers.POST(
      new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(csrf) },
        body: new URLSearchParams({ csrfToken, email: "al@example.test", password: "correct horse" }),
      }),
    );
    const cookies = [...csrf.headers.getSetCookie(), ...response.headers.getSetCookie()];
    expect(cookies.some((cookie) => cookie.startsWith("__Secure-authjs.session-token="))).toBe(true);
    for (const cookie of cookies) expect(cookie).toMatch(/; Secure/i);
  });

  it("leaves cookies plain for an HTTP app URL", async () => {
    const plain = NextAuth(
      createAuthConfig({ db: () => db, env: { ...env, TOOLNEXUS_APP_URL: "http://localhost:3000" } }),
    );
    const csrf = await plain.handlers.GET(new NextRequest("https://localhost:3000/api/auth/csrf"));
    for (const cookie of csrf.headers.getSetCookie()) expect(cookie).not.toMatch(/; Secure/i);
  });
});

describe("listOAuthProviders", () => {
  it("offers GitHub and OIDC only when fully configured", () => {
    expect(listOAuthProviders({ AUTH_GITHUB_ID: "id" })).toEqual([]);
    expect(
      listOAuthProviders({
        AUTH_GITHUB_ID: "id",
        AUTH_GITHUB_SECRET: "s",
        AUTH_OIDC_ISSUER: "https://idp.example",
        AUTH_OIDC_ID: "c",
        AUTH_OIDC_SECRET: "s",
        AUTH_OIDC_NAME: "Acme SSO",
      }),
    ).toEqual([
      { id: "github", name: "GitHub" },
      { id: "oidc", name: "Acme SSO" },
    ]);
  });
});
