import { describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { beginAuthorization } from "./begin-authorization";
import type { OAuthRuntime } from "./oauth-runtime";
import { withAuthorizationFlow } from "./testing/with-authorization-flow";

describe.each(["sqlite", "postgres"] as const)("on %s", (provider) => {
  let db: DbClient;
  let runtime: OAuthRuntime;
  const { callbackPrefix, parked, beginFor } = withAuthorizationFlow(
    provider,
    (ready) => ({ db, runtime } = ready),
  );

  describe("starting an authorization", () => {
    it("is only for the owner of an open, unexpired request", async () => {
      const fixture = await parked();
      const stranger = await parked();
      const begin = (userId: string, wireRequestId: string, now?: Date) =>
        beginAuthorization({ db, runtime, userId, provider: "demo", wireRequestId, ...(now ? { now } : {}) });
      // Someone else's request and an unknown one are refused alike, so an id reveals nothing.
      await expect(begin(stranger.user.id, fixture.request.requestId)).rejects.toMatchObject({
        code: "not_found:request",
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
