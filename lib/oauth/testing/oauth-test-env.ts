import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { resolveRequest } from "@/lib/db/resolve-request";
import { createTestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { AppError } from "@/lib/errors";
import { createOutboundFetch } from "@/lib/http/outbound-fetch";
import { beginAuthorization } from "../begin-authorization";
import { type AnswerRequestFn, completeAuthorization } from "../complete-authorization";
import { startDemoProviderServer } from "../demo-provider-server";
import type { OAuthRuntime } from "../oauth-runtime";
import { loadProviderRegistry } from "../provider-registry";
import { completeDemoConsent } from "./demo-consent-driver";
import { createParkedAuthorization } from "./oauth-fixtures";

export const TEST_APP_URL = "http://127.0.0.1:9";

/** A running demo provider and a runtime (registry, fresh keys) pointing at it. */
export async function startOAuthTestEnv(
  options: { accessTokenTtl?: number; mcpAdvertisedResource?: string; mcpProtectAll?: boolean } = {},
) {
  const server = await startDemoProviderServer({
    port: 0,
    // The demo's own client may also serve the MCP server's sign-in (a pre-registered client).
    redirectUris: [`${TEST_APP_URL}/oauth/demo/callback`, `${TEST_APP_URL}/oauth/mcp/bank/callback`],
    ...(options.accessTokenTtl ? { accessTokenTtl: options.accessTokenTtl } : {}),
    ...(options.mcpAdvertisedResource ? { mcpAdvertisedResource: options.mcpAdvertisedResource } : {}),
    ...(options.mcpProtectAll ? { mcpProtectAll: true } : {}),
  });
  const runtime: OAuthRuntime = {
    registry: loadProviderRegistry({ env: { OAUTH_DEMO_ISSUER: server.issuer }, demoMode: true }),
    keys: { encryption: randomBytes(32), state: randomBytes(32) },
    appUrl: TEST_APP_URL,
    // The demo provider and its MCP server listen on this machine.
    outboundFetch: createOutboundFetch({ allowPrivate: true }),
  };
  return { server, runtime };
}

export type OAuthTestEnv = Awaited<ReturnType<typeof startOAuthTestEnv>>;

/**
 * For one test file (or `describe` block): a demo provider and a fresh database (SQLite unless
 * `provider` says otherwise), both gone after the last test; `onReady` hands them to the
 * file's own variables.
 */
export function withOAuthTestEnv(
  onReady: (ready: { env: OAuthTestEnv; db: DbClient }) => void,
  {
    provider = "sqlite",
    mcpAdvertisedResource,
    mcpProtectAll,
  }: { provider?: TestProvider; mcpAdvertisedResource?: string; mcpProtectAll?: boolean } = {},
): void {
  let env: OAuthTestEnv | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    env = await startOAuthTestEnv({
      ...(mcpAdvertisedResource ? { mcpAdvertisedResource } : {}),
      ...(mcpProtectAll ? { mcpProtectAll } : {}),
    });
    const store = await createTestDatabase(provider);
    drop = () => store.drop();
    onReady({ env, db: store.db });
  });
  afterAll(async () => {
    await drop?.();
    await env?.server.close();
  });
}

/**
 * Records the answer through the same atomic claim the engine uses, without resuming a run:
 * these tests are about what the OAuth flow submits, not about the loop.
 */
export function claimingAnswerer(db: DbClient): AnswerRequestFn {
  return async ({ requestId, answer, actor }) => {
    const row = await db.request.findUniqueOrThrow({ where: { id: requestId } });
    if (typeof answer === "function") throw new Error("The callback answers with a decision in hand.");
    const result = await resolveRequest({
      db,
      id: requestId,
      resolution: { status: "answered", answer: { id: row.requestId, ...answer }, actorId: actor.id },
    });
    if (!result.claimed) throw new AppError("conflict:answer");
    return result;
  };
}

/** A fresh user who has been through the whole demo sign-in; returns their id. */
export async function connectDemoUser(db: DbClient, runtime: OAuthRuntime, wireId: string): Promise<string> {
  const fixture = await createParkedAuthorization(db, { wireId });
  const url = await beginAuthorization({
    db,
    runtime,
    userId: fixture.user.id,
    provider: "demo",
    wireRequestId: wireId,
  });
  const callback = await completeDemoConsent({
    authorizationUrl: url.toString(),
    redirectPrefix: `${TEST_APP_URL}/oauth/demo/callback`,
    decision: "allow",
  });
  await completeAuthorization({
    db,
    runtime,
    user: { id: fixture.user.id, role: "user" },
    provider: "demo",
    params: callback.searchParams,
    answerRequest: claimingAnswerer(db),
  });
  return fixture.user.id;
}
