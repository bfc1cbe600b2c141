import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createThread } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { logger } from "@/lib/log/logger";
import { beginMcpAuthorization } from "@/lib/oauth/begin-mcp-authorization";
import { completeMcpAuthorization } from "@/lib/oauth/complete-mcp-authorization";
import { type McpSignInServer, mcpTokensContext } from "@/lib/oauth/mcp-client-provider";
import { completeDemoConsent } from "@/lib/oauth/testing/demo-consent-driver";
import { type OAuthTestEnv, TEST_APP_URL, withOAuthTestEnv } from "@/lib/oauth/testing/oauth-test-env";
import { decryptToken } from "@/lib/oauth/token-crypto";
import { createAgentToolkit } from "../create-agent-toolkit";
import { getAgentClient } from "../get-agent-client";
import { createAppMcpPool } from "./app-mcp-pool";
import type { McpPool } from "./mcp-pool";

// The app's own pool, engine and demo model against the Demo Bank's protected MCP server: a
// question parks on a sign-in, the callback answers it, the run resumes and the call goes
// through with that user's token, and no token ever lands in what the run, the model or the
// logs can see.

let env: OAuthTestEnv;
let db: DbClient;
let engine: Engine;
let pool: McpPool;
let server: McpSignInServer;
const bus = createMemoryEventBus();
const logged: string[] = [];

withOAuthTestEnv((ready) => ({ env, db } = ready));

beforeAll(() => {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-sign-in-"));
  const configFile = path.join(dir, "mcp.json");
  server = { name: "bank", url: `${env.server.issuer}/mcp`, oauth: {} };
  writeFileSync(configFile, JSON.stringify({ mcpServers: { bank: { url: server.url, oauth: true } } }));
  pool = createAppMcpPool({ db, keys: () => env.runtime.keys, configFile, runtime: () => env.runtime });
  engine = createEngine({
    db,
    bus,
    instanceId: "mcp-sign-in-test",
    createClient: () =>
      getAgentClient({ config: { provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 } }),
    createToolkit: async ({ userId, runId }) =>
      createAgentToolkit({ userId, runId, balance: false, mcpTools: await pool.tools({ userId }) }),
    textFlushMs: 0,
  });
  // Everything the app logs or prints during these runs, to look for tokens in.
  const capture = (...args: unknown[]) => {
    logged.push(
      JSON.stringify(args, (_key, value) =>
        value instanceof Error ? `${value.name}: ${value.message}` : value,
      ),
    );
  };
  for (const level of ["trace", "debug", "info", "warn", "error", "fatal"] as const) {
    vi.spyOn(logger, level).mockImplementation(capture as never);
  }
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation(capture);
  }
});

afterAll(async () => {
  vi.restoreAllMocks();
  await engine?.idle();
  await engine?.stop();
  await pool?.close();
  await bus.close();
});

async function askForTransactions(email: string) {
  const user = await db.user.create({ data: { email, role: "user" } });
  const thread = await createThread({ db, userId: user.id });
  const { runId } = await engine.startRun({
    threadId: thread.id,
    userId: user.id,
    message: "show my transactions",
  });
  await engine.idle();
  const request = await db.request.findFirstOrThrow({ where: { runId } });
  return { user, threadId: thread.id, runId, request };
}

async function signIn(parked: Awaited<ReturnType<typeof askForTransactions>>, username: string) {
  const url = await beginMcpAuthorization({
    db,
    runtime: env.runtime,
    userId: parked.user.id,
    server,
    serverName: "bank",
    wireRequestId: parked.request.requestId,
  });
  const callback = await completeDemoConsent({
    authorizationUrl: url.toString(),
    redirectPrefix: `${TEST_APP_URL}/oauth/mcp/bank/callback`,
    decision: "allow",
    username,
  });
  const outcome = await completeMcpAuthorization({
    db,
    runtime: env.runtime,
    user: { id: parked.user.id, role: "user" },
    server,
    serverName: "bank",
    params: callback.searchParams,
    answerRequest: (input) => engine.answerRequest(input),
  });
  await engine.idle();
  return outcome;
}

async function finalText(runId: string) {
  const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
  const messages = await db.message.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  const last = messages.at(-1)?.content as { role: string; content: string } | undefined;
  return { status: run.status, text: last?.role === "assistant" ? last.content : "" };
}

async function tokensOf(userId: string): Promise<string[]> {
  const row = await db.mcpConnection.findUniqueOrThrow({
    where: { userId_server: { userId, server: "bank" } },
  });
  const tokens = JSON.parse(
    decryptToken(row.tokensEnc, env.runtime.keys.encryption, mcpTokensContext(userId, "bank")),
  );
  return [tokens.access_token, tokens.refresh_token].filter(Boolean);
}

describe("a run that calls an MCP server its user must sign in to", () => {
  it("parks, resumes after the sign-in, and shows each user their own data, no token anywhere", async () => {
    const dana = await askForTransactions("dana@example.test");
    expect(dana.request).toMatchObject({
      kind: "authorization",
      status: "open",
      toolName: "bank_recent_transactions",
      url: `${TEST_APP_URL}/oauth/mcp/bank/start?request=${dana.request.requestId}`,
    });
    const alex = await askForTransactions("alex@example.test");

    expect(await signIn(dana, "demo")).toEqual({ status: "connected", threadId: dana.threadId });
    expect(await signIn(alex, "alex")).toEqual({ status: "connected", threadId: alex.threadId });
    const danaRun = await finalText(dana.runId);
    const alexRun = await finalText(alex.runId);
    expect(danaRun.status).toBe("done");
    expect(danaRun.text).toContain("Dana Demo:");
    expect(danaRun.text).not.toContain("Alex Example");
    expect(alexRun.text).toContain("Alex Example:");

    // A second question goes straight through on the stored token: no new request.
    const { runId } = await engine.startRun({
      threadId: dana.threadId,
      userId: dana.user.id,
      message: "show my transactions",
    });
    await engine.idle();
    expect((await finalText(runId)).text).toContain("Dana Demo:");
    expect(await db.request.count({ where: { runId } })).toBe(0);

    const secrets = [...(await tokensOf(dana.user.id)), ...(await tokensOf(alex.user.id))];
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    const everything = JSON.stringify([
      await db.message.findMany(),
      await db.event.findMany(),
      await db.answer.findMany(),
      await db.request.findMany(),
      await db.run.findMany(),
      await db.auditLog.findMany(),
      logged,
    ]);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it("asks for a fresh sign-in, not a tool error, once the user's grant is revoked at the server", async () => {
    const parked = await askForTransactions("revoked@example.test");
    await signIn(parked, "demo");
    expect((await finalText(parked.runId)).text).toContain("Dana Demo:");
    const [access, refresh] = await tokensOf(parked.user.id);
    await (await env.server.demo.provider.AccessToken.find(access!))?.destroy();
    await (await env.server.demo.provider.RefreshToken.find(refresh!))?.destroy();

    const { runId } = await engine.startRun({
      threadId: parked.threadId,
      userId: parked.user.id,
      message: "show my transactions",
    });
    await engine.idle();
    const again = await db.request.findFirstOrThrow({ where: { runId } });
    expect(again).toMatchObject({
      kind: "authorization",
      status: "open",
      toolName: "bank_recent_transactions",
    });
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: "pending" });
    expect(await db.mcpConnection.count({ where: { userId: parked.user.id } })).toBe(0);
  });
});
