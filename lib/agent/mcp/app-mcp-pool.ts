import path from "node:path";
import type { McpServerConfig } from "toolnexus";
import { isDemoMode } from "@/lib/auth/demo-mode";
import type { DbClient } from "@/lib/db/db-types";
import { listStoredMcpServers } from "@/lib/db/mcp-servers";
import { createMcpOAuthProvider, type McpSignInServer } from "@/lib/oauth/mcp-client-provider";
import { mcpSignInFailure, mcpSignInRequest } from "@/lib/oauth/mcp-sign-in-request";
import { getOAuthRuntime, type OAuthRuntime } from "@/lib/oauth/oauth-runtime";
import type { SecretKeys } from "@/lib/oauth/secret-keys";
import { connectWithLibrary } from "./library-connection";
import { createServerLoader } from "./load-desired-servers";
import { createMcpPool, type McpPool } from "./mcp-pool";
import { openClientSecret, openServerHeaders } from "./server-headers";

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

/** The server as the sign-in flow needs it, when it is one whose users sign in on their own. */
export function signInServerOf(name: string, entry: McpServerConfig): McpSignInServer | undefined {
  if (entry.transport !== "http" || !entry.oauth) return undefined;
  return { name, url: entry.url, oauth: entry.oauth };
}

/**
 * A server marked `oauth` with one user's sign-in attached: the SDK's OAuth client provider
 * reading and refreshing only that user's sealed tokens, and the sign-in request a call parks
 * on when there are none. `userId` undefined is the anonymous probe that only lists tools.
 */
export function withUserAuthorization(
  name: string,
  entry: McpServerConfig,
  userId: string | undefined,
  deps: { db: DbClient; runtime: () => OAuthRuntime },
): McpServerConfig {
  const server = signInServerOf(name, entry);
  if (!server || entry.transport !== "http") return entry;
  const runtime = deps.runtime();
  return {
    ...entry,
    authorization: {
      provider: createMcpOAuthProvider({
        db: deps.db,
        runtime,
        userId: userId ?? "",
        server,
        mode: userId === undefined ? { kind: "probe" } : { kind: "run" },
      }),
      pending: (ctx) => mcpSignInRequest({ appUrl: runtime.appUrl, server, ctx }),
      failed: (error) => mcpSignInFailure(server.name, error),
    },
  };
}

/**
 * A remote server's entry as it is connected: every request, to the server and to the OAuth
 * endpoints it names, through the outbound fetch (ADR 0056), so the address policy holds on the
 * first connection and on every reconnection, on the address each one actually uses.
 */
function throughOutboundFetch(entry: McpServerConfig, runtime: () => OAuthRuntime): McpServerConfig {
  return entry.transport === "http" ? { ...entry, fetch: runtime().outboundFetch } : entry;
}

/** The app's pool: the config file's servers and the admins' remote servers, shared by every run. */
export function createAppMcpPool(options: {
  db: DbClient;
  keys: () => SecretKeys;
  configFile?: string;
  retryMs?: number;
  runtime?: () => OAuthRuntime;
}): McpPool {
  const { db, keys } = options;
  const deps = { db, runtime: options.runtime ?? getOAuthRuntime };
  return createMcpPool({
    loadServers: createServerLoader({
      configFile: options.configFile,
      listAdminServers: () => listStoredMcpServers({ db }),
      openHeaders: (name, sealed) => openServerHeaders(name, sealed, keys()),
      openClientSecret: (name, sealed) => openClientSecret(name, sealed, keys()),
    }),
    connect: (name, entry) =>
      connectWithLibrary(
        name,
        withUserAuthorization(name, throughOutboundFetch(entry, deps.runtime), undefined, deps),
      ),
    connectUser: (name, entry, userId) =>
      connectWithLibrary(
        name,
        withUserAuthorization(name, throughOutboundFetch(entry, deps.runtime), userId, deps),
      ),
    ...(options.retryMs !== undefined ? { retryMs: options.retryMs } : {}),
  });
}
