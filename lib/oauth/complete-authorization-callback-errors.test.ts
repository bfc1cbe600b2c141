import { describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { completeAuthorization } from "./complete-authorization";
import type { OAuthRuntime } from "./oauth-runtime";
import { getProviderConfig } from "./provider-registry";
import { issueState } from "./state";
import { claimingAnswerer } from "./testing/oauth-test-env";
import { withAuthorizationFlow } from "./testing/with-authorization-flow";

describe.each(["sqlite", "postgres"] as const)("on %s", (provider) => {
  let db: DbClient;
  let runtime: OAuthRuntime;
  const { parked, callbackFor, complete, snapshot } = withAuthorizationFlow(
    provider,
    (ready) => ({ db, runtime } = ready),
  );

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
});
