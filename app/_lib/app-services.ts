import { createInsightSummaryPass } from "@/app/admin/_lib/insight-summary-pass";
import "server-only";
import { randomUUID } from "node:crypto";
import { createA2APushQueue } from "@/app/api/a2a/_lib/push-queue";
import { AGENT_LOOP_OPTIONS } from "@/lib/agent/agent-loop-options";
import { createAgentToolkit } from "@/lib/agent/create-agent-toolkit";
import { getAgentClient } from "@/lib/agent/get-agent-client";
import { createAppMcpPool, mcpConfigPath } from "@/lib/agent/mcp/app-mcp-pool";
import type { McpPool } from "@/lib/agent/mcp/mcp-pool";
import { type Db, getDb } from "@/lib/db/sql/client";
import { resolveDatabaseUrl } from "@/lib/db/sql/database-url";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus, type EventBus } from "@/lib/engine/event-bus";
import { handOverOnTerminate } from "@/lib/engine/hand-over-on-terminate";
import { createPostgresEventBus } from "@/lib/engine/postgres-event-bus";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { readMailConfig } from "@/lib/notify/mail-config";
import { createMailWorker } from "@/lib/notify/mail-worker";
import { openPushToken, openWebhookSecret } from "@/lib/notify/webhook-secret";
import { createWebhookWorker } from "@/lib/notify/webhook-worker";
import { appBaseUrl } from "@/lib/oauth/app-url";
import { getOAuthRuntime } from "@/lib/oauth/oauth-runtime";
import { createThreadOwnerCache, type ThreadOwnerCache } from "./thread-owner-cache";

export interface AppServices {
  db: Db;
  engine: Engine;
  /** The engine's bus, for views that follow events across threads (the live inbox). */
  bus: EventBus;
  /** Whose thread a notice is about, so the live streams check only for their own viewer's. */
  threadOwners: ThreadOwnerCache;
  /** The process's MCP connections, shared by every run and shown at /admin/tools. */
  mcp: McpPool;
}

type ServicesGlobal = typeof globalThis & { __toolnexusServices?: Promise<AppServices> };

async function build(): Promise<AppServices> {
  const db = getDb();
  const instanceId = `web-${process.pid}-${randomUUID().slice(0, 8)}`;
  const { provider, url } = resolveDatabaseUrl(process.env.DATABASE_URL);
  const bus: EventBus =
    provider === "postgres"
      ? await createPostgresEventBus({ connectionString: url, instanceId })
      : createMemoryEventBus();
  const configFile = mcpConfigPath();
  const mcp = createAppMcpPool({
    db,
    keys: () => getOAuthRuntime().keys,
    ...(configFile ? { configFile } : {}),
  });
  const engine = createEngine({
    db,
    bus,
    instanceId,
    createClient: () => getAgentClient({ loop: AGENT_LOOP_OPTIONS }),
    createToolkit: async ({ userId, runId, threadId }) =>
      createAgentToolkit({ userId, runId, threadId, db, mcpTools: await mcp.tools({ userId }) }),
  });
  await engine.start();
  // The webhook outbox is sent by every instance, each claiming deliveries one by one (ADR 0036).
  const webhooks = createWebhookWorker({
    db,
    instanceId,
    allowPrivate: outboundPrivateAllowed(),
    openSecret: (endpointId, sealed) => openWebhookSecret(endpointId, sealed, getOAuthRuntime().keys),
    openPushToken: (configId, sealed) => openPushToken(configId, sealed, getOAuthRuntime().keys),
  });
  webhooks.start();
  // A2A tasks' new states are queued in that outbox for their push configs (ADR 0095).
  const pushes = createA2APushQueue({ db });
  pushes.start();
  // So is email about new requests (ADR 0037); without TOOLNEXUS_SMTP_URL it only closes notices.
  const mail = createMailWorker({ db, instanceId, mail: readMailConfig(), appUrl: appBaseUrl() });
  mail.start();
  // Insights' closed days are summarised in the background, not by the first page view (ADR 0099).
  const insights = createInsightSummaryPass({ db });
  insights.start();
  // Servers connect while the app starts (a stdio server's process can take seconds), so the
  // first run finds their tools instead of waiting; problems are statuses, never thrown.
  void mcp.status().catch((error: unknown) => console.error("[mcp] the servers could not be read", error));
  // On SIGTERM (or Ctrl+C) the runs this process drives go to a peer at once, before Next's own
  // shutdown lets the process exit.
  handOverOnTerminate(async () => {
    await Promise.all([engine.stop(), webhooks.stop(), pushes.stop(), mail.stop(), insights.stop()]);
  });
  return { db, engine, bus, threadOwners: createThreadOwnerCache({ db }), mcp };
}

/**
 * The process's one engine. Started once, on first use, and kept on globalThis so dev-mode
 * module reloads do not start a second set of timers.
 */
export function getAppServices(): Promise<AppServices> {
  const holder = globalThis as ServicesGlobal;
  holder.__toolnexusServices ??= build().catch((error: unknown) => {
    holder.__toolnexusServices = undefined;
    throw error;
  });
  return holder.__toolnexusServices;
}
