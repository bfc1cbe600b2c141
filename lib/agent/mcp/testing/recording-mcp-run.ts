import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClientFromDriver, createInProcessDriver, type ModelInput } from "toolnexus";
import { vi } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { logger } from "@/lib/log/logger";
import type { OAuthTestEnv } from "@/lib/oauth/testing/oauth-test-env";
import { createAgentToolkit } from "../../create-agent-toolkit";
import { createDemoGenerate, DEMO_MODEL_NAME } from "../../demo-model";
import { createAppMcpPool } from "../app-mcp-pool";
import type { McpPool } from "../mcp-pool";

/**
 * An engine on the demo model whose tools come from the app's MCP pool over `servers` (an
 * `mcp.json`'s `mcpServers`), keeping every model input and every logged warning, so a test can
 * look for a remote server's text in what the model read and in the log.
 */
export function startRecordingMcpRun({
  env,
  db,
  bus,
  name,
  servers,
}: {
  env: OAuthTestEnv;
  db: DbClient;
  bus: EventBus;
  name: string;
  servers: Record<string, unknown>;
}): { engine: Engine; pool: McpPool; modelInputs: string[]; warned: string[] } {
  const modelInputs: string[] = [];
  const configFile = path.join(mkdtempSync(path.join(tmpdir(), `${name}-`)), "mcp.json");
  writeFileSync(configFile, JSON.stringify({ mcpServers: servers }));
  const pool = createAppMcpPool({ db, keys: () => env.runtime.keys, configFile, runtime: () => env.runtime });
  const generate = createDemoGenerate({ deltaDelayMs: 0 });
  const engine = createEngine({
    db,
    bus,
    instanceId: `${name}-test`,
    createClient: () =>
      createClientFromDriver(
        createInProcessDriver({
          model: DEMO_MODEL_NAME,
          generate: (input: ModelInput) => {
            modelInputs.push(JSON.stringify(input));
            return generate(input);
          },
        }),
      ),
    createToolkit: async ({ userId, runId }) =>
      createAgentToolkit({ userId, runId, balance: false, mcpTools: await pool.tools({ userId }) }),
    textFlushMs: 0,
  });
  return { engine, pool, modelInputs, warned: recordWarnings() };
}

/** Every warning logged from now on, each as the JSON of its arguments (undo with vi.restoreAllMocks). */
export function recordWarnings(): string[] {
  const warned: string[] = [];
  vi.spyOn(logger, "warn").mockImplementation(((...args: unknown[]) => {
    warned.push(JSON.stringify(args));
  }) as never);
  return warned;
}
