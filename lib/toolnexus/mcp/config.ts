import { readFile } from "node:fs/promises";
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
}

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
}

/** A remote server reached over Streamable HTTP (or the older SSE transport as a fallback). */
export interface McpHttpServerConfig {
  transport: "http";
  url: string;
  headers?: Record<string, string>;
  disabled: boolean;
  timeoutMs?: number;
  oauth?: McpOAuthSettings;
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

/** What `createToolkit({ mcpConfig })` accepts: a path to a JSON file, or the parsed object. */
export type McpConfigInput = string | { mcpServers: Record<string, unknown> };

/** One server the config named but that cannot be used, with the reason people can act on. */
export interface McpConfigProblem {
  name: string;
  error: ToolnexusError;
}

export interface ParsedMcpConfig {
  servers: McpServerEntry[];
  /** Servers whose own entry is malformed; the rest of the file still counts. */
  problems: McpConfigProblem[];
}

// Server names become tool-name prefixes, so they are held to the characters tool names allow.
const serverName = /^[A-Za-z0-9_-]{1,64}$/;
const stringMap = z.record(z.string(), z.string());
const timeout = z.number().int().positive().max(86_400_000);

const stdioEntry = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().min(1).optional(),
    disabled: z.boolean().optional(),
    timeoutMs: timeout.optional(),
    type: z.literal("stdio").optional(),
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
    disabled: z.boolean().optional(),
    timeoutMs: timeout.optional(),
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
    type: z.enum(["http", "streamable-http", "streamableHttp", "sse"]).optional(),
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
  if ("url" in entry) {
    const parsed = httpEntry.safeParse(entry);
    if (!parsed.success) return configError(options.source, describe(parsed.error, where));
    const { url, headers, disabled, timeoutMs, oauth } = parsed.data;
    const config: McpHttpServerConfig = { transport: "http", url, disabled: disabled ?? false };
    if (headers) config.headers = headers;
    if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
    if (oauth) config.oauth = oauth === true ? {} : oauth;
    return config;
  }
  if (!("command" in entry)) {
    return configError(options.source, `${where}: needs "command" (stdio) or "url" (HTTP)`);
  }
  const parsed = stdioEntry.safeParse(entry);
  if (!parsed.success) return configError(options.source, describe(parsed.error, where));
  const { command, args, env, cwd, disabled, timeoutMs } = parsed.data;
  const config: McpStdioServerConfig = {
    transport: "stdio",
    command,
    args: args ?? [],
    disabled: disabled ?? false,
  };
  if (env) config.env = env;
  if (cwd) config.cwd = cwd;
  if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
  return config;
}

/**
 * Validates an MCP config (`{ mcpServers: { name: {...} } }`, the format other MCP clients use).
 * A malformed file as a whole is a ToolnexusError; a malformed server entry is reported in
 * `problems` and the other servers still count. `source` (a file path) prefixes every message.
 */
export function parseMcpConfig(value: unknown, options: { source?: string } = {}): ParsedMcpConfig {
  const json = typeof value === "string" ? parseJson(value, options.source) : value;
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw configError(options.source, "an MCP config must be a JSON object with an mcpServers object");
  }
  const servers = (json as Record<string, unknown>).mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw configError(options.source, "mcpServers: must be an object of named servers");
  }
  const result: ParsedMcpConfig = { servers: [], problems: [] };
  for (const [name, entry] of Object.entries(servers)) {
    const config = parseMcpServer(name, entry, options);
    if (config instanceof ToolnexusError) result.problems.push({ name, error: config });
    else result.servers.push({ name, config });
  }
  return result;
}

function parseJson(text: string, source: string | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw configError(source, `not valid JSON (${reason})`);
  }
}

/** Reads a config file (or takes an object) and validates it. */
export async function loadMcpConfig(input: McpConfigInput): Promise<ParsedMcpConfig> {
  if (typeof input !== "string") return parseMcpConfig(input);
  let text: string;
  try {
    text = await readFile(input, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw configError(input, `cannot read the MCP config (${reason})`);
  }
  return parseMcpConfig(text, { source: input });
}
