import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Db } from "@/lib/db/sql/client";
import { type AppInstance, startAppInstance } from "./topology/app-instance";

// A freshly started server must run the engine on its own: nobody loads a page here, so
// expiry and takeover can only come from the server process itself.
const PORT = Number(process.env.E2E_PORT || 3310) + 7;

let dir: string;
let db: Db;
let server: AppInstance | undefined;

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "toolnexus-idle-"));
});

test.afterAll(async () => {
  await server?.stop();
  await db?.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** Parks two runs the way a process that then stops would leave them, with no engine running. */
async function leaveRunsBehind(url: string) {
  const { migrateDatabase } = await import("@/lib/db/sql/migrate-database");
  const { createDb } = await import("@/lib/db/sql/client");
  const { createThread } = await import("@/lib/db/chat-threads");
  const { createEngine } = await import("@/lib/engine/create-engine");
  const { createMemoryEventBus } = await import("@/lib/engine/event-bus");
  const { getAgentClient } = await import("@/lib/agent/get-agent-client");
  const { formatDecline } = await import("@/lib/agent/format-decline");
  const { createAgentToolkit } = await import("@/lib/agent/create-agent-toolkit");

  await migrateDatabase({ url });
  db = createDb({ url });
  const owner = await db.user.create({
    data: { email: "idle-owner@example.test", name: "Owner", role: "user" },
  });
  const reviewer = await db.user.create({
    data: { email: "idle-reviewer@example.test", name: "Reviewer", role: "reviewer" },
  });
  const engine = createEngine({
    db,
    bus: createMemoryEventBus(),
    instanceId: "before-restart",
    createClient: () =>
      getAgentClient({
        config: { provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 },
        loop: { formatDecline },
      }),
    createToolkit: ({ userId, runId }) => createAgentToolkit({ userId, runId }),
    textFlushMs: 0,
  });

  const start = async (message: string) => {
    const { id: threadId } = await createThread({ db, userId: owner.id });
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message });
    await engine.idle();
    const request = await db.request.findFirstOrThrow({ where: { runId, status: "open" } });
    return { runId, request };
  };

  // A question whose time runs out while no server is up.
  const question = await start("ask me a question");
  const past = new Date(Date.now() - 1_000);
  await db.request.update({
    where: { id: question.request.id },
    data: {
      expiresAt: past,
      payload: { ...(question.request.payload as object), expiresAt: past.toISOString() },
    },
  });

  // An approval answered just before the process went away: the answer is stored, the run is not
  // continued here (stopping releases it), so only another process can finish it.
  const deploy = await start("deploy v1.4 to production");
  await engine.answerRequest({
    requestId: deploy.request.id,
    // Approved as it was asked: the request's own prefilled values.
    answer: { ok: true, data: (deploy.request.data as { values: Record<string, unknown> }).values },
    actor: { id: reviewer.id, role: "reviewer" },
  });
  await engine.stop();
  return { question, deploy };
}

test("a server that nobody visits expires due requests and finishes runs left behind", async () => {
  test.setTimeout(90_000);
  const url = `file:${path.join(dir, "idle.db")}`;
  const { question, deploy } = await leaveRunsBehind(url);
  const statusOf = async (runId: string) => (await db.run.findUniqueOrThrow({ where: { id: runId } })).status;
  expect(await statusOf(deploy.runId)).not.toBe("done");

  server = startAppInstance({
    port: PORT,
    env: { DATABASE_URL: url, TOOLNEXUS_APP_URL: `http://localhost:${PORT}` },
  });

  // No HTTP request is ever sent to this server.
  await expect
    .poll(async () => (await db.request.findUniqueOrThrow({ where: { id: question.request.id } })).status, {
      timeout: 45_000,
    })
    .toBe("expired");
  await expect.poll(() => statusOf(question.runId), { timeout: 20_000 }).toBe("done");
  await expect.poll(() => statusOf(deploy.runId), { timeout: 20_000 }).toBe("done");
  const results = await db.event.findMany({ where: { runId: deploy.runId, type: "tool_result" } });
  expect(results.map((event) => JSON.stringify(event.payload))).toEqual([expect.stringContaining("deploy")]);
});
