import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import { ToolnexusError } from "../errors";
import type { Context, ToolResult } from "../types";

/** A server the toolkit starts as a child process and talks to over stdin/stdout. */
export interface McpStdioServerConfig {
  transport: "stdio";
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  disabled: boolean;
  timeoutMs?: number;
  /** Bounds starting the server, its handshake and its listing (below the hub's own bound). */
  connectTimeoutMs?: number;
  /** Which of the server's tools to offer, by their own names (see `McpToolFilter`). */
  tools?: McpToolFilter;
}

/**
 * A per-server tool filter keyed on the server's own tool names: empty means every tool; any
 * `true` makes it an allowlist; only `false`s make it a drop-list. Names the server does not have
 * are ignored.
 */
export type McpToolFilter = Record<string, boolean>;

/**
 * A server whose every user signs in on their own (the MCP authorization spec, OAuth 2.1):
 * `"oauth": true` or an object. A pre-registered client goes here; without one the client
 * registers itself dynamically (RFC 7591) where the authorization server allows it.
 */
export interface McpOAuthSettings {
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
}

/**
 * How a host supplies one user's sign-in to a server marked `oauth`: the SDK's OAuth client
 * provider holding that user's tokens (each user gets a connection of their own), and the
 * suspension a call returns when the user must sign in first (an `authorization` request).
 */
export interface McpAuthorization {
  provider: OAuthClientProvider;
  pending: (ctx: Context) => ToolResult | Promise<ToolResult>;
  /**
   * How a call ends that failed before the server answered it: the sign-in's discovery,
   * registration or token refresh refused, or the server or its authorization server out of
   * reach. The error's message is remote text (the SDK quotes the authorization server's
   * description and the server's metadata), so it never becomes the result as it is: the host
   * chooses the words and where the text goes. Without this the library says only what
   * `describeFailure` says.
   */
  failed?: (error: unknown, ctx: Context) => ToolResult | Promise<ToolResult>;
}

/** A remote server reached over Streamable HTTP (or the older SSE transport as a fallback). */
export interface McpHttpServerConfig {
  transport: "http";
  url: string;
  headers?: Record<string, string>;
  disabled: boolean;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  oauth?: McpOAuthSettings;
  tools?: McpToolFilter;
  /** Set by a host in code, never read from a file: see McpAuthorization. */
  authorization?: McpAuthorization;
  /**
   * Set by a host in code, never read from a file: the fetch every request to this server and
   * to its OAuth endpoints goes through, e.g. one that refuses internal addresses. Default: the
   * global fetch.
   */
  fetch?: FetchLike;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
}

// Server names become tool-name prefixes, so they are held to the characters tool names allow.
const serverName = /^[A-Za-z0-9_-]{1,64}$/;
const stringMap = z.record(z.string(), z.string());
const timeout = z.number().int().positive().max(86_400_000);

// Both formats in use are read: Claude Desktop's (`command` + `args`, `env`, `disabled`,
// `timeoutMs`) and opencode's (`command` as one array, `environment`, `enabled`, `timeout`, a
// `tools` filter, `type: "local" | "remote"`).
const common = {
  disabled: z.boolean().optional(),
  enabled: z.boolean().optional(),
  timeoutMs: timeout.optional(),
  timeout: timeout.optional(),
  tools: z.record(z.string(), z.boolean()).optional(),
};

const stdioEntry = z
  .object({
    command: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    environment: stringMap.optional(),
    cwd: z.string().min(1).optional(),
    type: z.enum(["stdio", "local"]).optional(),
    ...common,
  })
  .strict();

const httpEntry = z
  .object({
    url: z
      .string()
      .refine(
        (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
        "must be an http(s) URL",
      ),
    headers: stringMap.optional(),
    ...common,
    oauth: z
      .union([
        z.boolean(),
        z
          .object({
            clientId: z.string().min(1).max(500).optional(),
            clientSecret: z.string().min(1).max(2000).optional(),
            scope: z.string().min(1).max(1000).optional(),
          })
          .strict(),
      ])
      .optional(),
    type: z.enum(["http", "streamable-http", "streamableHttp", "sse", "remote"]).optional(),
  })
  .strict();

function describe(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  if (!issue) return `${prefix}: invalid`;
  const path = [prefix, ...issue.path.map(String)].join(".");
  return `${path}: ${issue.message}`;
}

function configError(source: string | undefined, detail: string): ToolnexusError {
  return new ToolnexusError("config:invalid", source ? `${source}: ${detail}` : detail);
}

/** Checks one server entry; returns its normalized config or the error naming the field. */
export function parseMcpServer(
  name: string,
  value: unknown,
  options: { source?: string } = {},
): McpServerConfig | ToolnexusError {
  const where = `mcpServers.${name}`;
  if (!serverName.test(name)) {
    return configError(options.source, `${where}: a server name uses only letters, digits, "_" and "-"`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return configError(options.source, `${where}: must be an object`);
  }
  const entry = value as Record<string, unknown>;
  if ("command" in entry && "url" in entry) {
    return configError(options.source, `${where}: give either "command" (stdio) or "url" (HTTP), not both`);
  }
  for (const [one, other] of [
    ["timeoutMs", "timeout"],
    ["env", "environment"],
  ]) {
    if (one! in entry && other! in entry) {
      return configError(options.source, `${where}: give "${one}" or "${other}", not both`);
    }
  }
  if ("url" in entry) {
    const parsed = httpEntry.safeParse(entry);
    if (!parsed.success) return configError(options.source, describe(parsed.error, where));
    const { url, headers, oauth } = parsed.data;
    const config: McpHttpServerConfig = { transport: "http", url, ...commonOf(parsed.data) };
    if (headers) config.headers = headers;
    if (oauth) config.oauth = oauth === true ? {} : oauth;
    return config;
  }
  if (!("command" in entry)) {
    return configError(options.source, `${where}: needs "command" (stdio) or "url" (HTTP)`);
  }
  const parsed = stdioEntry.safeParse(entry);
  if (!parsed.success) return configError(options.source, describe(parsed.error, where));
  const { command, args, cwd } = parsed.data;
  if (Array.isArray(command) && args !== undefined) {
    return configError(options.source, `${where}: give the arguments in "command" or in "args", not both`);
  }
  const [program, ...rest] = Array.isArray(command) ? command : [command, ...(args ?? [])];
  const config: McpStdioServerConfig = {
    transport: "stdio",
    command: program!,
    args: rest,
    ...commonOf(parsed.data),
  };
  const env = parsed.data.env ?? parsed.data.environment;
  if (env) config.env = env;
  if (cwd) config.cwd = cwd;
  return config;
}

/**
 * `disabled: true` wins, then `enabled: false`. Claude Desktop's `timeoutMs` bounds each call;
 * opencode's `timeout` bounds everything asked of the server, connecting and listing included.
 */
function commonOf(entry: {
  disabled?: boolean | undefined;
  enabled?: boolean | undefined;
  timeoutMs?: number | undefined;
  timeout?: number | undefined;
  tools?: McpToolFilter | undefined;
}): Pick<McpStdioServerConfig, "disabled" | "timeoutMs" | "connectTimeoutMs" | "tools"> {
  const common: Pick<McpStdioServerConfig, "disabled" | "timeoutMs" | "connectTimeoutMs" | "tools"> = {
    disabled: entry.disabled === true || entry.enabled === false,
  };
  if (entry.timeoutMs !== undefined) common.timeoutMs = entry.timeoutMs;
  if (entry.timeout !== undefined) {
    common.timeoutMs = entry.timeout;
    common.connectTimeoutMs = entry.timeout;
  }
  if (entry.tools && Object.keys(entry.tools).length > 0) common.tools = entry.tools;
  return common;
}
