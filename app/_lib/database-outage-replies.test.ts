import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRequestRoute } from "@/app/api/v1/_lib/api-routes";
import { serveApiRoute } from "@/app/api/v1/_lib/define-api-route";
import { readRequestCall } from "@/app/api/v1/_lib/request-calls";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { createAuthConfig } from "@/lib/auth/auth-config";
import { userFromSession } from "@/lib/auth/session-user";
import { hashPassword } from "@/lib/auth/verify-credentials";
import { createApiToken } from "@/lib/db/api-tokens";
import type { DbClient } from "@/lib/db/db-types";
import { createDb } from "@/lib/db/sql/client";
import { type CuttableProxy, startCuttableProxy, throughProxy } from "@/lib/db/testing/cuttable-proxy";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { upsertUserByEmail } from "@/lib/db/users";
import { makeTestEngine } from "@/lib/engine/testing/engine-fixture";
import { memoryLog } from "@/lib/engine/testing/scripted-agent";
import { errorResponse } from "./define-route";

// While the database is away (a proxy in front of PostgreSQL, cut as a restart would), a
// signed-in person's session check and an API call are answered 503 with Retry-After and words
// that say the service is briefly unavailable — never "sign in", and the session cookie is kept.

const ORIGIN = "http://localhost:3999";
const env = { AUTH_SECRET: "outage-test-secret-0123456789abcdef0123", TOOLNEXUS_DEMO: "1" };

describe("replies while the database is away (postgres)", () => {
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let db: DbClient;
  let nextAuth: ReturnType<typeof NextAuth>;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    proxy = await startCuttableProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
    db = createDb({ url: throughProxy(database.url, proxy), poolMax: 4 });
    nextAuth = NextAuth(createAuthConfig({ db: () => db, env }));
  });
  afterAll(async () => {
    await db?.$disconnect();
    await proxy?.close();
    await database?.drop();
  });

  const setCookies = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";", 1)[0]!);

  async function signIn(email: string, password: string): Promise<string> {
    const csrf = await nextAuth.handlers.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookies = setCookies(csrf).join("; ");
    const response = await nextAuth.handlers.POST(
      new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookies },
        body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${ORIGIN}/chat` }),
      }),
    );
    const session = setCookies(response).find((cookie) => cookie.startsWith("authjs.session-token="));
    if (!session) throw new Error("no session was issued");
    return session;
  }

  /** What a route does first (`requireUser`), answered as routes answer (`errorResponse`). */
  async function checkSession(cookie: string): Promise<Response> {
    const handler = nextAuth.auth((request) => {
      try {
        return Response.json({ user: userFromSession(request.auth) });
      } catch (error) {
        return errorResponse(error);
      }
    });
    return (await handler(
      new NextRequest(`${ORIGIN}/api/probe`, {
        headers: { cookie, host: new URL(ORIGIN).host, "x-forwarded-proto": "http" },
      }),
      { params: Promise.resolve({}) },
    )) as Response;
  }

  async function expectBrieflyUnavailable(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe("unavailable:database");
    expect(body.message).toMatch(/briefly unavailable/);
    expect(body.message).not.toMatch(/sign in/i);
  }

  it("answers a signed-in reviewer's session check 503, keeps the session, and knows them again after", async () => {
    await upsertUserByEmail({
      db,
      email: "rita@example.test",
      name: "Rita",
      role: "reviewer",
      passwordHash: await hashPassword("correct horse"),
    });
    const cookie = await signIn("rita@example.test", "correct horse");
    expect((await checkSession(cookie)).status).toBe(200);

    const outage = proxy.cut(1_500);
    const during = await checkSession(cookie);
    // The cookie is neither cleared nor replaced by an empty one.
    expect(setCookies(during).filter((c) => c.startsWith("authjs.session-token=") && c.length < 30)).toEqual(
      [],
    );
    await expectBrieflyUnavailable(during);
    await outage;

    const after = await checkSession(cookie);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { user: { email: string } }).user.email).toBe("rita@example.test");
  });

  it("answers an API call 503 with Retry-After, not 401", async () => {
    const user = await upsertUserByEmail({
      db,
      email: "agent@example.test",
      name: "Agent",
      role: "user",
      passwordHash: null,
    });
    const minted = mintApiToken();
    await createApiToken({
      db,
      userId: user.id,
      name: "agent",
      scopes: ["requests:read"],
      expiresAt: null,
      limit: 20,
      ...minted,
    });
    const engine = makeTestEngine({ db, log: memoryLog() });
    const read = serveApiRoute(readRequestRoute, readRequestCall);
    const call = () =>
      read(
        new Request(`${ORIGIN}/api/v1/requests/nope`, {
          headers: { authorization: `Bearer ${minted.token}` },
        }),
        { params: Promise.resolve({ id: "nope" }) },
        { db, engine },
      );
    expect((await call()).status).toBe(404);
    const outage = proxy.cut(1_500);
    await expectBrieflyUnavailable(await call());
    await outage;
    expect((await call()).status).toBe(404);
  });
});
