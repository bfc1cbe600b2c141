import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { createTestDatabase, type TestDatabase } from "@/lib/engine/testing/test-database";
import { beginAuthorization } from "./begin-authorization";
import { completeAuthorization } from "./complete-authorization";
import { getUsableAccessToken } from "./connection-tokens";
import { callProviderApi } from "./oauth-client";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { issueState } from "./state";
import { completeDemoConsent } from "./testing/demo-consent-driver";
import { createParkedAuthorization } from "./testing/oauth-fixtures";
import { claimingAnswerer, startOAuthTestEnv, TEST_APP_URL } from "./testing/oauth-test-env";

let env: Awaited<ReturnType<typeof startOAuthTestEnv>>;
let runtime: OAuthRuntime;
let counter = 0;

beforeAll(async () => {
  env = await startOAuthTestEnv();
  runtime = env.runtime;
});

afterAll(async () => {
  await env?.server.close();
});

describe.each(["sqlite", "postgres"] as const)("on %s", (provider) => {
  let store: TestDatabase;
  let db: DbClient;

  beforeAll(async () => {
    store = await createTestDatabase(provider);
    db = store.db;
  });

  afterAll(async () => {
    await store?.drop();
  });

  const callbackPrefix = `${TEST_APP_URL}/oauth/demo/callback`;

  async function parked(extra: { expiresAt?: Date } = {}) {
    counter += 1;
    const fixture = await createParkedAuthorization(db, { wireId: `auth-${counter}`, ...extra });
    const user = { id: fixture.user.id, role: "user" as const };
    return { ...fixture, actor: user };
  }

  /** Starts the sign-in for a parked request as its owner would, from the request's link. */
  function beginFor(fixture: Awaited<ReturnType<typeof parked>>, now?: Date) {
    return beginAuthorization({
      db,
      runtime,
      userId: fixture.user.id,
      provider: "demo",
      wireRequestId: fixture.request.requestId,
      ...(now ? { now } : {}),
    });
  }

  async function callbackFor(fixture: Awaited<ReturnType<typeof parked>>, decision: "allow" | "deny") {
    const url = await beginFor(fixture);
    return completeDemoConsent({
      authorizationUrl: url.toString(),
      redirectPrefix: callbackPrefix,
      decision,
    });
  }

  function complete(fixture: { actor: { id: string; role: "user" } }, params: URLSearchParams, now?: Date) {
    return completeAuthorization({
      db,
      runtime,
      user: fixture.actor,
      provider: "demo",
      params,
      answerRequest: claimingAnswerer(db),
      ...(now ? { now } : {}),
    });
  }

  async function snapshot(requestRowId: string) {
    const request = await db.request.findUniqueOrThrow({
      where: { id: requestRowId },
      include: { answer: true },
    });
    const states = await db.oAuthState.findMany({ where: { requestRowId }, orderBy: { createdAt: "asc" } });
    return { status: request.status, answer: request.answer, usedAt: states.map((s) => s.usedAt) };
  }

  describe("the authorization round trip", () => {
    it("connects, stores tokens encrypted, and answers with provider and scopes only", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      const outcome = await complete(fixture, callback.searchParams);
      expect(outcome).toEqual({ status: "connected", threadId: fixture.thread.id });

      const after = await snapshot(fixture.request.id);
      expect(after.status).toBe("answered");
      expect(after.answer).toMatchObject({ ok: true, actorId: fixture.user.id });
      expect(after.answer?.data).toEqual({
        provider: "demo",
        scopes: expect.arrayContaining(["balance:read"]),
      });

      const token = await getUsableAccessToken({ db, runtime, userId: fixture.user.id, provider: "demo" });
      if (token.status !== "ready") throw new Error(`expected a token, got ${token.reason}`);
      const row = await db.oAuthConnection.findUniqueOrThrow({
        where: { userId_provider: { userId: fixture.user.id, provider: "demo" } },
      });
      expect(row.accessTokenEnc).not.toContain(token.accessToken);
      expect(row.refreshTokenEnc).toMatch(/^v1\./);
      expect(JSON.stringify(after.answer)).not.toContain(token.accessToken);
      const provider = getProviderConfig(runtime.registry, "demo");
      const api = await callProviderApi({ provider, accessToken: token.accessToken, path: "api/balance" });
      expect(api.status).toBe("ok");
    });

    it("refuses a replayed callback and changes nothing", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      await complete(fixture, callback.searchParams);
      const before = await snapshot(fixture.request.id);
      await expect(complete(fixture, callback.searchParams)).rejects.toMatchObject({ code: "state:used" });
      expect(await snapshot(fixture.request.id)).toEqual(before);
    });

    it("lets exactly one of two racing callbacks through", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      const results = await Promise.allSettled([
        complete(fixture, callback.searchParams),
        complete(fixture, callback.searchParams),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: "state:used" });
    });

    it("answers a denial as declined", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "deny");
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(await complete(fixture, callback.searchParams)).toEqual({
        status: "declined",
        threadId: fixture.thread.id,
      });
      const after = await snapshot(fixture.request.id);
      expect(after.status).toBe("answered");
      expect(after.answer).toMatchObject({ ok: false, reason: "declined" });
      expect(await db.oAuthConnection.count({ where: { userId: fixture.user.id } })).toBe(0);
    });

    it("keeps the connection when the request was closed while the user was at the provider", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      await db.request.update({ where: { id: fixture.request.id }, data: { status: "cancelled" } });
      expect(await complete(fixture, callback.searchParams)).toEqual({
        status: "connected_request_closed",
        threadId: fixture.thread.id,
      });
      expect(await db.oAuthConnection.count({ where: { userId: fixture.user.id } })).toBe(1);
      expect((await snapshot(fixture.request.id)).answer).toBeNull();
    });

    it("keeps the request open when the provider reports another error", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      const params = new URLSearchParams({
        state: callback.searchParams.get("state")!,
        error: "server_error",
      });
      await expect(complete(fixture, params)).rejects.toMatchObject({ code: "provider:error" });
      expect((await snapshot(fixture.request.id)).status).toBe("open");
    });
  });

  describe("callback error paths change nothing", () => {
    it("refuses a tampered state", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      const before = await snapshot(fixture.request.id);
      const state = callback.searchParams.get("state")!;
      const tampered = new URLSearchParams(callback.searchParams);
      tampered.set("state", `${state.slice(0, 5)}${state[5] === "A" ? "B" : "A"}${state.slice(6)}`);
      await expect(complete(fixture, tampered)).rejects.toMatchObject({ code: "state:tampered" });
      expect(await snapshot(fixture.request.id)).toEqual(before);
      expect(before.usedAt).toEqual([null]);
    });

    it("refuses a state this app signed but never stored", async () => {
      const fixture = await parked();
      const forged = issueState({
        requestRowId: fixture.request.id,
        userId: fixture.user.id,
        provider: "demo",
        key: runtime.keys.state,
      });
      const params = new URLSearchParams({ state: forged.state, code: "whatever" });
      await expect(complete(fixture, params)).rejects.toMatchObject({ code: "state:unknown" });
      expect((await snapshot(fixture.request.id)).status).toBe("open");
    });

    it("refuses an expired state", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      const before = await snapshot(fixture.request.id);
      const later = new Date(Date.now() + 11 * 60 * 1000);
      await expect(complete(fixture, callback.searchParams, later)).rejects.toMatchObject({
        code: "state:expired",
      });
      expect(await snapshot(fixture.request.id)).toEqual(before);
    });

    it("refuses another signed-in user, and the owner can still finish", async () => {
      const fixture = await parked();
      const stranger = await parked();
      const callback = await callbackFor(fixture, "allow");
      await expect(complete(stranger, callback.searchParams)).rejects.toMatchObject({
        code: "state:mismatch",
      });
      expect((await snapshot(fixture.request.id)).usedAt).toEqual([null]);
      expect((await complete(fixture, callback.searchParams)).status).toBe("connected");
    });

    it("refuses a callback that arrives on another provider's route", async () => {
      const fixture = await parked();
      const callback = await callbackFor(fixture, "allow");
      const otherRuntime: OAuthRuntime = {
        ...runtime,
        registry: new Map([
          ...runtime.registry,
          ["other", { ...getProviderConfig(runtime.registry, "demo"), name: "other" }],
        ]),
      };
      await expect(
        completeAuthorization({
          db,
          runtime: otherRuntime,
          user: fixture.actor,
          provider: "other",
          params: callback.searchParams,
          answerRequest: claimingAnswerer(db),
        }),
      ).rejects.toMatchObject({ code: "state:mismatch" });
    });

    it("refuses a query without code or error", async () => {
      const fixture = await parked();
      await expect(complete(fixture, new URLSearchParams({ state: "x" }))).rejects.toMatchObject({
        code: "state:malformed",
      });
    });
  });

  describe("starting an authorization", () => {
    it("is only for the owner of an open, unexpired request", async () => {
      const fixture = await parked();
      const stranger = await parked();
      const begin = (userId: string, wireRequestId: string, now?: Date) =>
        beginAuthorization({ db, runtime, userId, provider: "demo", wireRequestId, ...(now ? { now } : {}) });
      await expect(begin(stranger.user.id, fixture.request.requestId)).rejects.toMatchObject({
        code: "forbidden:request",
      });
      await expect(begin(fixture.user.id, "auth-missing")).rejects.toMatchObject({
        code: "not_found:request",
      });
      await expect(
        beginAuthorization({ db, runtime, userId: fixture.user.id, provider: "github", wireRequestId: "x" }),
      ).rejects.toMatchObject({ code: "provider:unknown" });

      const expiring = await parked({ expiresAt: new Date(Date.now() + 60_000) });
      await expect(
        begin(expiring.user.id, expiring.request.requestId, new Date(Date.now() + 120_000)),
      ).rejects.toMatchObject({ code: "expired:request" });

      await db.request.update({ where: { id: fixture.request.id }, data: { status: "cancelled" } });
      await expect(begin(fixture.user.id, fixture.request.requestId)).rejects.toMatchObject({
        code: "conflict:request_closed",
      });
      expect(await db.oAuthState.count({ where: { requestRowId: fixture.request.id } })).toBe(0);
    });

    it("clears states that expired long ago", async () => {
      const old = await parked();
      const then = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
      await beginFor(old, then);
      expect(await db.oAuthState.count({ where: { requestRowId: old.request.id } })).toBe(1);
      const fresh = await parked();
      await beginFor(fresh);
      expect(await db.oAuthState.count({ where: { requestRowId: old.request.id } })).toBe(0);
      expect(await db.oAuthState.count({ where: { requestRowId: fresh.request.id } })).toBe(1);
    });

    it("stores only the state's hash and an encrypted verifier", async () => {
      const fixture = await parked();
      const url = await beginFor(fixture);
      const state = url.searchParams.get("state")!;
      const [row] = await db.oAuthState.findMany({ where: { requestRowId: fixture.request.id } });
      expect(row!.stateHash).not.toBe(state);
      expect(row!.codeVerifierEnc).toMatch(/^v1\./);
      expect(row!.redirectUri).toBe(callbackPrefix);
      expect(url.searchParams.get("redirect_uri")).toBe(callbackPrefix);
    });
  });
});
