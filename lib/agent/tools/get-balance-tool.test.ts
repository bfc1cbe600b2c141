import { randomBytes } from "node:crypto";
import type { Request } from "toolnexus";
import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { connectionTokenContext } from "@/lib/oauth/connection-tokens";
import { revokeToken } from "@/lib/oauth/oauth-client";
import { getProviderConfig, loadProviderRegistry } from "@/lib/oauth/provider-registry";
import {
  connectDemoUser,
  type OAuthTestEnv,
  TEST_APP_URL,
  withOAuthTestEnv,
} from "@/lib/oauth/testing/oauth-test-env";
import { decryptToken } from "@/lib/oauth/token-crypto";
import { createGetBalanceTool } from "./get-balance-tool";

let env: OAuthTestEnv;
let db: DbClient;
withOAuthTestEnv((ready) => ({ env, db } = ready));

const clock = () => new Date("2030-01-01T00:00:00.000Z");

function connect(wireId: string) {
  return connectDemoUser(db, env.runtime, wireId);
}

function tool(userId: string) {
  return createGetBalanceTool({ userId, db, runtime: env.runtime });
}

describe("get_balance", () => {
  it("asks for authorization through the app's start link when not connected", async () => {
    const user = await db.user.create({ data: { email: "fresh@example.test" } });
    const result = await createGetBalanceTool({ userId: user.id, db, runtime: env.runtime, clock }).execute(
      {},
      { idempotencyKey: "run-1:call-1" },
    );
    const request = pendingOf(result) as Request;
    expect(request.kind).toBe("authorization");
    expect(request.url).toBe(`${TEST_APP_URL}/oauth/demo/start?request=${request.id}`);
    expect(request.data).toMatchObject({ provider: "demo", host: new URL(env.server.issuer).host });
    expect(request.expiresAt).toBe("2030-01-01T00:30:00.000Z");
    expect(result.output).toBe(`${request.prompt}\n${request.url}`);

    const again = await createGetBalanceTool({ userId: user.id, db, runtime: env.runtime, clock }).execute(
      {},
      { idempotencyKey: "run-1:call-1" },
    );
    expect(pendingOf(again)?.id).toBe(request.id);
    const other = await tool(user.id).execute({}, { idempotencyKey: "run-1:call-2" });
    expect(pendingOf(other)?.id).not.toBe(request.id);
  });

  it("reads the balance with the stored token, which never appears in the output", async () => {
    const userId = await connect("auth-balance-1");
    const result = await tool(userId).execute({}, { idempotencyKey: "run-2:call-1" });
    expect(result).toEqual({ output: "Your Demo Bank balance (Dana Demo) is 1,234.56 EUR.", isError: false });
    const row = await db.oAuthConnection.findFirstOrThrow({ where: { userId } });
    const token = decryptToken(
      row.accessTokenEnc,
      env.runtime.keys.encryption,
      connectionTokenContext(userId, "demo", "access"),
    );
    expect(result.output).not.toContain(token);
  });

  it("refreshes an expired token and keeps working", async () => {
    const userId = await connect("auth-balance-2");
    const before = await db.oAuthConnection.findFirstOrThrow({ where: { userId } });
    await db.oAuthConnection.update({
      where: { id: before.id },
      data: { tokenExpiresAt: new Date(Date.now() - 1000) },
    });
    const result = await tool(userId).execute({}, {});
    expect(result.isError).toBe(false);
    const after = await db.oAuthConnection.findFirstOrThrow({ where: { userId } });
    expect(after.accessTokenEnc).not.toBe(before.accessTokenEnc);
    expect(after.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("treats a revoked token as needing a fresh authorization", async () => {
    const userId = await connect("auth-balance-3");
    const row = await db.oAuthConnection.findFirstOrThrow({ where: { userId } });
    const token = decryptToken(
      row.accessTokenEnc,
      env.runtime.keys.encryption,
      connectionTokenContext(userId, "demo", "access"),
    );
    await revokeToken({ provider: getProviderConfig(env.runtime.registry, "demo"), token });
    const result = await tool(userId).execute({}, {});
    expect(pendingOf(result)?.kind).toBe("authorization");
    expect(await db.oAuthConnection.count({ where: { userId } })).toBe(0);
  });

  it("asks again when the token expired and cannot be refreshed", async () => {
    const userId = await connect("auth-balance-4");
    await db.oAuthConnection.updateMany({
      where: { userId },
      data: { tokenExpiresAt: new Date(Date.now() - 1000), refreshTokenEnc: null },
    });
    expect(pendingOf(await tool(userId).execute({}, {}))?.kind).toBe("authorization");
    expect(await db.oAuthConnection.count({ where: { userId } })).toBe(0);
  });
});

describe("get_balance when the provider is unreachable", () => {
  it("fails the call but keeps the connection for the next attempt", async () => {
    const userId = await connect("auth-balance-5");
    await db.oAuthConnection.updateMany({
      where: { userId },
      data: { tokenExpiresAt: new Date(Date.now() - 1000) },
    });
    // Same keys and tokens, but the provider's address now leads nowhere.
    const unreachable = {
      ...env.runtime,
      registry: loadProviderRegistry({ env: { OAUTH_DEMO_ISSUER: "http://127.0.0.1:9" }, demoMode: true }),
    };
    const result = await createGetBalanceTool({ userId, db, runtime: unreachable }).execute({}, {});
    expect(result).toEqual({ output: "Could not reach Demo Bank", isError: true });
    expect(await db.oAuthConnection.count({ where: { userId } })).toBe(1);
  });
});

describe("get_balance after an encryption key rotation", () => {
  it("reads tokens sealed with the previous key while it is configured", async () => {
    const userId = await connect("auth-balance-6");
    const rotated = {
      ...env.runtime,
      keys: {
        ...env.runtime.keys,
        encryption: randomBytes(32),
        previousEncryption: [env.runtime.keys.encryption],
      },
    };
    const result = await createGetBalanceTool({ userId, db, runtime: rotated }).execute({}, {});
    expect(result.isError).toBe(false);

    const forgotten = { ...env.runtime, keys: { ...env.runtime.keys, encryption: randomBytes(32) } };
    const again = await createGetBalanceTool({ userId, db, runtime: forgotten }).execute({}, {});
    expect(pendingOf(again)?.kind).toBe("authorization");
    expect(await db.oAuthConnection.count({ where: { userId } })).toBe(0);
  });
});
