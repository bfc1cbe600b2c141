import { describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { getUsableAccessToken } from "./connection-tokens";
import { callProviderApi } from "./oauth-client";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { withAuthorizationFlow } from "./testing/with-authorization-flow";

describe.each(["sqlite", "postgres"] as const)("on %s", (provider) => {
  let db: DbClient;
  let runtime: OAuthRuntime;
  const { parked, callbackFor, complete, snapshot } = withAuthorizationFlow(
    provider,
    (ready) => ({ db, runtime } = ready),
  );

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
});
