import path from "node:path";
import { isDemoMode } from "@/lib/auth/demo-mode";
import type { DbClient } from "@/lib/db/db-types";
import { listStoredMcpServers } from "@/lib/db/mcp-servers";
import type { SecretKeys } from "@/lib/oauth/secret-keys";
import { connectWithLibrary } from "./library-connection";
import { createServerLoader } from "./load-desired-servers";
import { createMcpPool, type McpPool } from "./mcp-pool";
import { openServerHeaders } from "./server-headers";

type Env = Record<string, string | undefined>;

/** The bundled demo server's config, used in demo mode unless TOOLNEXUS_MCP_CONFIG says otherwise. */
export const DEMO_MCP_CONFIG = "mcp.demo.json";

/**
 * The server-side config file: `TOOLNEXUS_MCP_CONFIG` (set it empty for none), else the demo
 * config in demo mode. Relative paths are taken from the working directory, the repository root.
 */
export function mcpConfigPath(env: Env = process.env): string | undefined {
  const configured = env.TOOLNEXUS_MCP_CONFIG;
  if (configured !== undefined) return configured.trim() === "" ? undefined : path.resolve(configured.trim());
  return isDemoMode(env) ? path.resolve(DEMO_MCP_CONFIG) : undefined;
}

/** The app's pool: the config file's servers and the admins' remote servers, shared by every run. */
export function createAppMcpPool(options: {
  db: DbClient;
  keys: () => SecretKeys;
  configFile?: string;
  retryMs?: number;
}): McpPool {
  const { db, keys } = options;
  return createMcpPool({
    loadServers: createServerLoader({
      configFile: options.configFile,
      listAdminServers: () => listStoredMcpServers({ db }),
      openHeaders: (name, sealed) => openServerHeaders(name, sealed, keys()),
    }),
    connect: connectWithLibrary,
    ...(options.retryMs !== undefined ? { retryMs: options.retryMs } : {}),
  });
}
