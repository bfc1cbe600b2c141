import { afterAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { disconnectMcpServer } from "./disconnect-mcp-server";
import { type McpSignInServer, mcpTokensContext } from "./mcp-client-provider";
import { DEMO_CLIENT_ID, DEMO_DEFAULT_CLIENT_SECRET } from "./provider-registry";
import { mcpSignInSteps } from "./testing/mcp-sign-in-env";
import { type OAuthTestEnv, withOAuthTestEnv } from "./testing/oauth-test-env";
import { decryptToken } from "./token-crypto";

describe("signing in to an MCP server (MCP authorization)", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  let server: McpSignInServer;
  withOAuthTestEnv((ready) => {
    env = ready.env;
    db = ready.db;
    server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
  });
  const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
  afterAll(() => steps.closeAll());

  it("parks the first call, signs the user in, and the retried call carries their token", async () => {
    const user = await steps.parkedUser();
    expect(user.pending).toMatchObject({
      kind: "authorization",
      id: user.wireId,
      url: expect.stringContaining(`/oauth/mcp/bank/start?request=${user.wireId}`),
      data: { provider: "mcp:bank", mcpServer: "bank" },
    });
    const url = await steps.begin(user.user.id, user.wireId);
    expect(url.searchParams.get("resource")).toBe(server.url);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("scope")).toBe("transactions:read");
    const callback = await steps.consent(url);
    const outcome = await steps.complete(user.actor, callback.searchParams);
    expect(outcome.status).toBe("connected");
    const answer = await db.answer.findFirstOrThrow({ where: { requestRowId: user.request.id } });
    expect(answer.data).toEqual({ provider: "mcp:bank", server: "bank" });

    const result = await steps.retry(user.hub, user.pending!);
    expect(result).toMatchObject({ isError: false });
    expect(result.output).toContain("Dana Demo:");
  });
});

describe("signing in to an MCP server with a client an admin registered", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  let server: McpSignInServer;
  withOAuthTestEnv((ready) => {
    env = ready.env;
    db = ready.db;
    server = {
      name: "bank",
      url: `${env.server.issuer}/mcp`,
      oauth: { clientId: DEMO_CLIENT_ID, clientSecret: DEMO_DEFAULT_CLIENT_SECRET },
    };
  });
  const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
  afterAll(() => steps.closeAll());

  it("uses that client and registers none", async () => {
    const user = await steps.parkedUser();
    const url = await steps.begin(user.user.id, user.wireId);
    expect(url.searchParams.get("client_id")).toBe(DEMO_CLIENT_ID);
    await steps.complete(user.actor, (await steps.consent(url)).searchParams);
    expect((await steps.retry(user.hub, user.pending!)).output).toContain("Dana Demo:");
    expect(await db.mcpOAuthClient.count()).toBe(0);
  });
});

describe.each<TestProvider>(["sqlite", "postgres"])(
  "MCP sign-ins on %s are per user, single use and checked",
  (provider) => {
    let env: OAuthTestEnv;
    let db: DbClient;
    let server: McpSignInServer;
    withOAuthTestEnv(
      (ready) => {
        env = ready.env;
        db = ready.db;
        server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
      },
      { provider },
    );
    const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
    afterAll(() => steps.closeAll());

    const tokensOf = async (userId: string) => {
      const row = await db.mcpConnection.findUnique({ where: { userId_server: { userId, server: "bank" } } });
      if (!row) return undefined;
      const { decryptToken } = await import("./token-crypto");
      const { mcpTokensContext } = await import("./mcp-client-provider");
      return JSON.parse(
        decryptToken(row.tokensEnc, env.runtime.keys.encryption, mcpTokensContext(userId, "bank")),
      ) as {
        access_token: string;
        refresh_token?: string;
      };
    };

    it("gives two users their own tokens and their own data", async () => {
      const dana = await steps.parkedUser();
      const alex = await steps.parkedUser();
      const danaBack = await steps.consent(await steps.begin(dana.user.id, dana.wireId), "demo");
      const alexBack = await steps.consent(await steps.begin(alex.user.id, alex.wireId), "alex");

      // Alex cannot complete Dana's sign-in, even holding her callback URL: nothing is stored.
      await expect(steps.complete(alex.actor, danaBack.searchParams)).rejects.toThrow(
        "This sign-in was started by a different account",
      );
      expect(await tokensOf(alex.user.id)).toBeUndefined();
      expect(await tokensOf(dana.user.id)).toBeUndefined();

      await steps.complete(dana.actor, danaBack.searchParams);
      await steps.complete(alex.actor, alexBack.searchParams);
      expect((await steps.retry(dana.hub, dana.pending!)).output).toContain("Dana Demo:");
      expect((await steps.retry(alex.hub, alex.pending!)).output).toContain("Alex Example:");
      const [danaTokens, alexTokens] = [await tokensOf(dana.user.id), await tokensOf(alex.user.id)];
      expect(danaTokens!.access_token).not.toBe(alexTokens!.access_token);
      // One registered client serves both users.
      expect(await db.mcpOAuthClient.count()).toBe(1);

      // The callback is single use: replaying it is refused and changes nothing.
      const before = await db.mcpConnection.findMany({ orderBy: { userId: "asc" } });
      await expect(steps.complete(dana.actor, danaBack.searchParams)).rejects.toThrow(
        "This sign-in link has already been used",
      );
      expect(await db.mcpConnection.findMany({ orderBy: { userId: "asc" } })).toEqual(before);
    });

    it("refuses a forged or expired state and a response from another issuer, leaving the request parked", async () => {
      const user = await steps.parkedUser();
      const back = await steps.consent(await steps.begin(user.user.id, user.wireId));

      const forged = new URLSearchParams(back.searchParams);
      forged.set("state", `${back.searchParams.get("state")!.split(".")[0]}.AAAA`);
      await expect(steps.complete(user.actor, forged)).rejects.toThrow(
        "The sign-in link was altered or was not issued by this app",
      );
      const late = new Date(Date.now() + 11 * 60 * 1000);
      await expect(steps.complete(user.actor, back.searchParams, late)).rejects.toThrow(
        "The sign-in link has expired; start again",
      );
      const wrongIss = new URLSearchParams(back.searchParams);
      wrongIss.set("iss", "http://127.0.0.1:1/elsewhere");
      await expect(steps.complete(user.actor, wrongIss)).rejects.toThrow(
        "The sign-in response did not come from the server's authorization server",
      );
      expect(await tokensOf(user.user.id)).toBeUndefined();
      const request = await db.request.findUniqueOrThrow({ where: { id: user.request.id } });
      expect(request.status).toBe("open");
      // Neither refusal consumed the state: the genuine response still completes.
      expect((await steps.complete(user.actor, back.searchParams)).status).toBe("connected");
    });

    it("refreshes an expired access token and asks for a new sign-in once the refresh is refused", async () => {
      const user = await steps.parkedUser();
      await steps.complete(
        user.actor,
        (await steps.consent(await steps.begin(user.user.id, user.wireId))).searchParams,
      );
      const first = await tokensOf(user.user.id);
      expect(first?.refresh_token).toBeTruthy();

      // The access token is no longer accepted (as once it expires): the call refreshes and goes through.
      await (await env.server.demo.provider.AccessToken.find(first!.access_token))!.destroy();
      const refreshed = await steps.call(user.hub, { idempotencyKey: "refresh:1" });
      expect(refreshed.output).toContain("Dana Demo:");
      const second = await tokensOf(user.user.id);
      expect(second!.access_token).not.toBe(first!.access_token);

      // Now the grant is revoked as well: the next call is a fresh authorization request, not an error.
      await (await env.server.demo.provider.AccessToken.find(second!.access_token))!.destroy();
      const refresh = await env.server.demo.provider.RefreshToken.find(second!.refresh_token!);
      await refresh!.destroy();
      const again = await steps.call(user.hub, { idempotencyKey: "refresh:2" });
      expect(again).toMatchObject({ isError: true, metadata: { pending: { kind: "authorization" } } });
      // Neither the new request nor any result on the way names a token.
      for (const token of [first!.access_token, second!.access_token, second!.refresh_token!]) {
        expect(JSON.stringify([refreshed, again])).not.toContain(token);
      }
      expect(await tokensOf(user.user.id)).toBeUndefined();
    });
  },
);

describe("disconnecting an MCP server", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  let server: McpSignInServer;
  withOAuthTestEnv((ready) => {
    env = ready.env;
    db = ready.db;
    server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
  });
  const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
  afterAll(() => steps.closeAll());

  it("revokes the tokens at the authorization server (RFC 7009) and deletes them here", async () => {
    const user = await steps.parkedUser();
    await steps.complete(
      user.actor,
      (await steps.consent(await steps.begin(user.user.id, user.wireId))).searchParams,
    );
    const row = await db.mcpConnection.findUniqueOrThrow({
      where: { userId_server: { userId: user.user.id, server: "bank" } },
    });
    const tokens = JSON.parse(
      decryptToken(row.tokensEnc, env.runtime.keys.encryption, mcpTokensContext(user.user.id, "bank")),
    );
    const outcome = await disconnectMcpServer({
      db,
      runtime: env.runtime,
      userId: user.user.id,
      serverName: "bank",
      server,
    });
    expect(outcome).toEqual({ status: "disconnected", revokedAtProvider: true });
    expect(await env.server.demo.provider.AccessToken.find(tokens.access_token)).toBeUndefined();
    expect(await env.server.demo.provider.RefreshToken.find(tokens.refresh_token)).toBeUndefined();
    expect(await db.mcpConnection.count()).toBe(0);
    // The next call asks for a sign-in again.
    const again = await steps.call(user.hub, { idempotencyKey: "after-disconnect" });
    expect(again).toMatchObject({ metadata: { pending: { kind: "authorization" } } });
    expect(
      await disconnectMcpServer({
        db,
        runtime: env.runtime,
        userId: user.user.id,
        serverName: "bank",
        server,
      }),
    ).toEqual({ status: "not_connected" });
  });
});

describe("an MCP server whose metadata names another resource", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  let server: McpSignInServer;
  withOAuthTestEnv(
    (ready) => {
      env = ready.env;
      db = ready.db;
      server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
    },
    { mcpAdvertisedResource: "http://127.0.0.1:1/mcp" },
  );
  const steps = mcpSignInSteps(() => ({ db, runtime: env.runtime, server }));
  afterAll(() => steps.closeAll());

  it("fails the call and refuses the start in fixed words, storing nothing", async () => {
    const user = await steps.parkedUser();
    expect(user.first).toMatchObject({ isError: true });
    expect(user.first.output).toBe("bank could not complete the sign-in. Try again from your chat.");
    // The metadata is the server's to write: the page gets fixed words, the log the details.
    await expect(steps.begin(user.user.id, user.wireId)).rejects.toThrow(
      "bank could not complete the sign-in. Try again from your chat.",
    );
    expect(await db.oAuthState.count()).toBe(0);
    expect(await db.mcpOAuthClient.count()).toBe(0);
    const request = await db.request.findUniqueOrThrow({ where: { id: user.request.id } });
    expect(request.status).toBe("open");
  });
});
