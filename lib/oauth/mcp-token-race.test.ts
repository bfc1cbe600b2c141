import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { createMcpOAuthProvider, type McpSignInServer } from "./mcp-client-provider";
import { type OAuthTestEnv, withOAuthTestEnv } from "./testing/oauth-test-env";

// Two processes act for one user at one server, each with its own connection and provider. With
// a rotating refresh token only the first refresh succeeds; the other's is refused, and the SDK
// then throws the tokens away and starts over. What it throws away must be the tokens that were
// refused, never the fresh ones the first process has just stored.

describe("two processes refreshing one user's MCP tokens", () => {
  let env: OAuthTestEnv;
  let db: DbClient;
  withOAuthTestEnv((ready) => {
    env = ready.env;
    db = ready.db;
  });
  const server: McpSignInServer = { name: "bank", url: "http://127.0.0.1:9/mcp", oauth: {} };

  const providerFor = (userId: string) =>
    createMcpOAuthProvider({ db, runtime: env.runtime, userId, server, mode: { kind: "run" } });
  const tokens = (name: string): OAuthTokens & { issuer: string } => ({
    access_token: `access-${name}`,
    refresh_token: `refresh-${name}`,
    token_type: "Bearer",
    expires_in: 3600,
    issuer: "https://as.example.test",
  });

  async function userWithTokens(email: string) {
    const user = await db.user.create({ data: { email } });
    await providerFor(user.id).saveTokens(tokens("first"));
    return user.id;
  }

  it("keeps the tokens another process refreshed meanwhile, and the retry reads them", async () => {
    const userId = await userWithTokens("race-kept@example.test");
    const winner = providerFor(userId);
    const loser = providerFor(userId);
    expect((await winner.tokens())?.refresh_token).toBe("refresh-first");
    expect((await loser.tokens())?.refresh_token).toBe("refresh-first");

    // The winner's refresh succeeded and is stored; the loser's, with the same refresh token, was refused.
    await winner.saveTokens(tokens("second"));
    await loser.invalidateCredentials!("tokens");

    expect(await db.mcpConnection.count({ where: { userId, server: "bank" } })).toBe(1);
    expect((await loser.tokens())?.access_token).toBe("access-second");
  });

  it("still throws refused tokens away when nobody replaced them, so the next call asks for a sign-in", async () => {
    const userId = await userWithTokens("race-refused@example.test");
    const provider = providerFor(userId);
    expect((await provider.tokens())?.refresh_token).toBe("refresh-first");
    await provider.invalidateCredentials!("tokens");
    expect(await db.mcpConnection.count({ where: { userId, server: "bank" } })).toBe(0);
    expect(await provider.tokens()).toBeUndefined();
  });

  it("throws away its own fresh tokens once they are refused too", async () => {
    const userId = await userWithTokens("race-own@example.test");
    const provider = providerFor(userId);
    await provider.tokens();
    await provider.saveTokens(tokens("second"));
    await provider.invalidateCredentials!("tokens");
    expect(await db.mcpConnection.count({ where: { userId, server: "bank" } })).toBe(0);
  });
});
