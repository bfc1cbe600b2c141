import { describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { connectionTokenContext } from "./connection-tokens";
import { disconnectProvider } from "./disconnect-provider";
import { callProviderApi, refreshTokenSet } from "./oauth-client";
import { getProviderConfig } from "./provider-registry";
import { connectDemoUser, type OAuthTestEnv, withOAuthTestEnv } from "./testing/oauth-test-env";
import { decryptToken } from "./token-crypto";

let env: OAuthTestEnv;
let db: DbClient;
withOAuthTestEnv((ready) => ({ env, db } = ready));

describe("disconnecting a provider", () => {
  it("revokes the tokens at the provider and forgets them here", async () => {
    const userId = await connectDemoUser(db, env.runtime, "auth-disconnect-1");
    const row = await db.oAuthConnection.findFirstOrThrow({ where: { userId } });
    const key = env.runtime.keys.encryption;
    const access = decryptToken(row.accessTokenEnc, key, connectionTokenContext(userId, "demo", "access"));
    const refresh = decryptToken(
      row.refreshTokenEnc!,
      key,
      connectionTokenContext(userId, "demo", "refresh"),
    );
    const provider = getProviderConfig(env.runtime.registry, "demo");

    const outcome = await disconnectProvider({ db, runtime: env.runtime, userId, provider: "demo" });
    expect(outcome).toEqual({ status: "disconnected", revokedAtProvider: true });
    expect(await db.oAuthConnection.count({ where: { userId } })).toBe(0);
    expect(await callProviderApi({ provider, accessToken: access, path: "api/balance" })).toEqual({
      status: "unauthorized",
    });
    await expect(refreshTokenSet({ provider, refreshToken: refresh })).rejects.toMatchObject({
      code: "exchange:failed",
    });
  });

  it("touches only the signed-in user's connection", async () => {
    const mine = await connectDemoUser(db, env.runtime, "auth-disconnect-2");
    const theirs = await connectDemoUser(db, env.runtime, "auth-disconnect-3");
    await disconnectProvider({ db, runtime: env.runtime, userId: mine, provider: "demo" });
    expect(await db.oAuthConnection.count({ where: { userId: theirs } })).toBe(1);
    expect(await disconnectProvider({ db, runtime: env.runtime, userId: mine, provider: "demo" })).toEqual({
      status: "not_connected",
    });
  });
});
