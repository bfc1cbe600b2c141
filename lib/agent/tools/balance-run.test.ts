import { createToolkit } from "toolnexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createThread } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { beginAuthorization } from "@/lib/oauth/begin-authorization";
import { completeAuthorization } from "@/lib/oauth/complete-authorization";
import { connectionTokenContext } from "@/lib/oauth/connection-tokens";
import { completeDemoConsent } from "@/lib/oauth/testing/demo-consent-driver";
import { type OAuthTestEnv, TEST_APP_URL, withOAuthTestEnv } from "@/lib/oauth/testing/oauth-test-env";
import { decryptToken } from "@/lib/oauth/token-crypto";
import { getAgentClient } from "../get-agent-client";
import { createGetBalanceTool } from "./get-balance-tool";

// The whole server-side journey with the real engine and the offline demo model: a balance
// question parks on a sign-in, the provider's consent answers it, and the run finishes.

let env: OAuthTestEnv;
let db: DbClient;
let engine: Engine;
const bus = createMemoryEventBus();

// Registered first, so its database and provider outlive the engine (after-hooks run in reverse).
withOAuthTestEnv((ready) => ({ env, db } = ready));

beforeAll(() => {
  engine = createEngine({
    db,
    bus,
    instanceId: "oauth-test",
    createClient: () =>
      getAgentClient({ config: { provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 } }),
    createToolkit: ({ userId }) =>
      createToolkit({ extraTools: [createGetBalanceTool({ userId, db, runtime: env.runtime })] }),
    textFlushMs: 0,
  });
});

afterAll(async () => {
  await engine?.idle();
  await engine?.stop();
  await bus.close();
});

async function askForBalance(email: string) {
  const user = await db.user.create({ data: { email, role: "user" } });
  const thread = await createThread({ db, userId: user.id });
  const { runId } = await engine.startRun({
    threadId: thread.id,
    userId: user.id,
    message: "what's my balance?",
  });
  await engine.idle();
  const request = await db.request.findFirstOrThrow({ where: { runId } });
  return { user, threadId: thread.id, runId, request };
}

async function consent(parked: Awaited<ReturnType<typeof askForBalance>>, decision: "allow" | "deny") {
  const url = await beginAuthorization({
    db,
    runtime: env.runtime,
    userId: parked.user.id,
    provider: "demo",
    wireRequestId: parked.request.requestId,
  });
  const callback = await completeDemoConsent({
    authorizationUrl: url.toString(),
    redirectPrefix: `${TEST_APP_URL}/oauth/demo/callback`,
    decision,
  });
  const outcome = await completeAuthorization({
    db,
    runtime: env.runtime,
    user: { id: parked.user.id, role: "user" },
    provider: "demo",
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

describe("a balance question that needs a sign-in", () => {
  it("parks, resumes after consent, and shows the balance without the token ever reaching the run", async () => {
    const parked = await askForBalance("allow@example.test");
    expect(parked.request).toMatchObject({ kind: "authorization", status: "open", toolName: "get_balance" });
    expect(parked.request.url).toContain(`/oauth/demo/start?request=${parked.request.requestId}`);

    expect(await consent(parked, "allow")).toEqual({ status: "connected", threadId: parked.threadId });
    expect(await finalText(parked.runId)).toEqual({
      status: "done",
      text: "Your Demo Bank balance (Dana Demo) is 1,234.56 EUR.",
    });

    const row = await db.oAuthConnection.findFirstOrThrow({ where: { userId: parked.user.id } });
    const token = decryptToken(
      row.accessTokenEnc,
      env.runtime.keys.encryption,
      connectionTokenContext(parked.user.id, "demo", "access"),
    );
    const everything = JSON.stringify([
      await db.message.findMany({ where: { threadId: parked.threadId } }),
      await db.event.findMany({ where: { threadId: parked.threadId } }),
      await db.answer.findMany({ where: { requestRowId: parked.request.id } }),
      await db.run.findMany({ where: { id: parked.runId } }),
    ]);
    expect(everything).not.toContain(token);
  });

  it("tells the model the sign-in was declined", async () => {
    const parked = await askForBalance("deny@example.test");
    expect(await consent(parked, "deny")).toEqual({ status: "declined", threadId: parked.threadId });
    const result = await finalText(parked.runId);
    expect(result.status).toBe("done");
    expect(result.text).toMatch(/^The balance check did not go ahead\. declined/);
  });
});
