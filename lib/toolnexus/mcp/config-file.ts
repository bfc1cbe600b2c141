import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { ToolnexusError } from "../errors";
import { type McpServerEntry, parseMcpServer } from "./config";

/** What `createToolkit({ mcpConfig })` accepts: a path to a JSON file, or the parsed object. */
export type McpConfigInput = string | Record<string, unknown>;

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

// Keys a config file may hold beside its servers; a bare map of servers is read without them.
const SIBLING_KEYS = new Set(["builtins", "agents", "a2a", "mcpServer"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The servers of a config, in any of the shapes in use: under `mcpServers` (Claude Desktop and
 * most clients), `servers` or `mcp` (opencode), or the bare map of servers itself.
 */
function serverMap(config: Record<string, unknown>): unknown {
  const wrapped = config.mcpServers ?? config.servers ?? config.mcp;
  if (wrapped !== undefined) return wrapped;
  return Object.fromEntries(Object.entries(config).filter(([key]) => !SIBLING_KEYS.has(key)));
}

/** The server map of a config as written, unchecked; a string is a path to a JSON file. */
export function parseMcpConfig(input: string | Record<string, unknown>): Record<string, unknown> {
  const config = typeof input === "string" ? parseJson(readFileSync(input, "utf8"), input) : input;
  if (!isObject(config)) throw configError(undefined, "an MCP config must be a JSON object");
  const servers = serverMap(config);
  if (!isObject(servers)) throw configError(undefined, "the MCP servers must be an object of named servers");
  return servers;
}

/**
 * `${NAME}` in header values replaced by that environment variable (empty when unset), so a
 * token lives in the environment rather than in the committed config.
 */
export function expandEnvHeaders(headers: Record<string, string>): Record<string, string>;
export function expandEnvHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined;
export function expandEnvHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const expanded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    expanded[name] = value.replace(
      /\$\{([A-Za-z0-9_]+)\}/g,
      (_, variable: string) => process.env[variable] ?? "",
    );
  }
  return expanded;
}

/**
 * Checks an MCP config (JSON text or the object) server by server. A malformed config as a whole
 * is a ToolnexusError; a malformed server entry is reported in `problems` and the other servers
 * still count. `source` (a file path) prefixes every message. Header values of the config's
 * servers have `${NAME}` read from the environment: the config is the host's own (a server added
 * on its own with `parseMcpServer` is taken literally, so people who may add one cannot read it).
 */
export function validateMcpConfig(value: unknown, options: { source?: string } = {}): ParsedMcpConfig {
  const json = typeof value === "string" ? parseJson(value, options.source) : value;
  if (!isObject(json)) throw configError(options.source, "an MCP config must be a JSON object of servers");
  const servers = serverMap(json);
  if (!isObject(servers)) {
    throw configError(options.source, "mcpServers: must be an object of named servers");
  }
  const result: ParsedMcpConfig = { servers: [], problems: [] };
  for (const [name, entry] of Object.entries(servers)) {
    const config = parseMcpServer(name, entry, options);
    if (config instanceof ToolnexusError) {
      result.problems.push({ name, error: config });
      continue;
    }
    if (config.transport === "http" && config.headers) config.headers = expandEnvHeaders(config.headers);
    result.servers.push({ name, config });
  }
  return result;
}

function configError(source: string | undefined, detail: string): ToolnexusError {
  return new ToolnexusError("config:invalid", source ? `${source}: ${detail}` : detail);
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
  if (typeof input !== "string") return validateMcpConfig(input);
  let text: string;
  try {
    text = await readFile(input, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw configError(input, `cannot read the MCP config (${reason})`);
  }
  return validateMcpConfig(text, { source: input });
}
