import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { sanitize } from "../adapters";
import { ToolnexusError } from "../errors";
import type { Tool, ToolAnnotations } from "../types";
import { callMcpTool } from "./call-tool";
import type { McpServerConfig, McpToolFilter } from "./config";
import { loadMcpConfig, type McpConfigInput } from "./config-file";
import { ParkedCalls } from "./parked-calls";
import { type McpHubOptions, McpServerConnection, type McpServerSettings } from "./server";

export interface McpServerStatus {
  name: string;
  status: "connected" | "failed" | "disabled";
  transport?: "stdio" | "http" | "sse";
  toolCount: number;
  /** Why the server failed (connection, config entry), one line, no secrets. */
  error?: string;
  /** Tool names of this server not offered because an earlier tool already has the name. */
  duplicates?: string[];
  /** Present on a failed server marked `oauth` that refused the connection until the user signs in. */
  needsAuthorization?: true;
}

/** The tools a server's filter lets through (see `McpToolFilter`). */
function offered(tools: McpTool[], filter: McpToolFilter | undefined): McpTool[] {
  if (!filter) return tools;
  const allowlist = Object.values(filter).includes(true);
  return tools.filter((tool) => (allowlist ? filter[tool.name] === true : filter[tool.name] !== false));
}

/** `<server>_<tool>`, with every character outside `[A-Za-z0-9_-]` replaced by `_`. */
export function mcpToolName(server: string, tool: string): string {
  return sanitize(`${server}_${tool}`);
}

function annotationsOf(tool: McpTool): ToolAnnotations | undefined {
  const source = tool.annotations ?? {};
  const annotations: ToolAnnotations = {};
  const title = source.title ?? tool.title;
  if (typeof title === "string") annotations.title = title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof source[key] === "boolean") annotations[key] = source[key];
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/**
 * The MCP servers of one process: their connections, their tools under toolnexus names, and the
 * calls parked on elicitations. Share one hub across runs (tools are listed once per
 * connection); a toolkit built with `mcpHub` uses it without owning it.
 */
export interface McpHub {
  /** Settles once every server has connected or failed. */
  ready(): Promise<void>;
  /** MCP tools in config order; `reserved` names (native tools) win over MCP ones. */
  tools(reserved?: ReadonlySet<string>): Tool[];
  status(reserved?: ReadonlySet<string>): McpServerStatus[];
  /** What each connected server lists, under its own names, before any filter. */
  listed(): Record<string, McpTool[]>;
  /** Adds (or replaces) a server at run time and connects it. */
  addServer(name: string, config: McpServerConfig): Promise<McpServerStatus>;
  removeServer(name: string): Promise<void>;
  /** Calls parked on an unanswered elicitation in this process. */
  parkedCount(): number;
  close(): Promise<void>;
}

interface ToolList {
  tools: Tool[];
  duplicates: Map<string, string[]>;
}

export function createMcpHub(
  options: McpHubOptions & { servers?: { name: string; config: McpServerConfig }[] } = {},
): McpHub {
  const resolved: McpServerSettings = {
    clientName: options.clientName ?? "toolnexus",
    clientVersion: options.clientVersion ?? "0.1.0",
    timeoutMs: options.timeoutMs ?? 60_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    parkTimeoutMs: options.parkTimeoutMs ?? 15 * 60_000,
  };
  const parked = new ParkedCalls(resolved.parkTimeoutMs);
  const servers = new Map<string, McpServerConnection>();
  const wrapped = new WeakMap<McpTool, Tool>();
  let closed = false;

  const toolOf = (server: McpServerConnection, mcpTool: McpTool): Tool => {
    const known = wrapped.get(mcpTool);
    if (known) return known;
    const target = { server, tool: mcpTool.name, parked };
    const tool: Tool = {
      name: mcpToolName(server.name, mcpTool.name),
      description: mcpTool.description ?? mcpTool.title ?? mcpTool.name,
      inputSchema: mcpTool.inputSchema as Record<string, unknown>,
      source: "mcp",
      server: server.name,
      execute: (args, ctx) => callMcpTool(target, args, ctx),
    };
    const annotations = annotationsOf(mcpTool);
    if (annotations) tool.annotations = annotations;
    wrapped.set(mcpTool, tool);
    return tool;
  };

  const list = (reserved: ReadonlySet<string> = new Set()): ToolList => {
    const taken = new Set(reserved);
    const result: ToolList = { tools: [], duplicates: new Map() };
    for (const server of servers.values()) {
      if (server.state === "disabled") continue;
      for (const mcpTool of offered(server.tools, server.config.tools)) {
        const tool = toolOf(server, mcpTool);
        if (taken.has(tool.name)) {
          result.duplicates.set(server.name, [...(result.duplicates.get(server.name) ?? []), tool.name]);
          continue;
        }
        taken.add(tool.name);
        result.tools.push(tool);
      }
    }
    return result;
  };

  const statusOf = (server: McpServerConnection, duplicates: string[] | undefined): McpServerStatus => {
    const status: McpServerStatus = {
      name: server.name,
      status: server.state === "connecting" ? "failed" : server.state,
      toolCount:
        server.state === "disabled"
          ? 0
          : offered(server.tools, server.config.tools).length - (duplicates?.length ?? 0),
    };
    if (server.transport && server.state !== "disabled") status.transport = server.transport;
    if (server.state === "connecting") status.error = "Still connecting";
    else if (server.error && server.state === "failed") status.error = server.error;
    if (duplicates?.length) status.duplicates = duplicates;
    if (server.state === "failed" && server.needsAuthorization) status.needsAuthorization = true;
    return status;
  };

  const add = (name: string, config: McpServerConfig): McpServerConnection => {
    const server = new McpServerConnection(
      name,
      config,
      resolved,
      () => options.onChange?.(),
      options.onFailure,
    );
    servers.set(name, server);
    return server;
  };
  for (const entry of options.servers ?? []) add(entry.name, entry.config);
  let initial = Promise.all([...servers.values()].map((server) => server.connect())).then(() => {});

  return {
    ready: () => initial,
    tools: (reserved) => list(reserved).tools,
    status(reserved) {
      const { duplicates } = list(reserved);
      return [...servers.values()].map((server) => statusOf(server, duplicates.get(server.name)));
    },
    listed() {
      const listed: Record<string, McpTool[]> = {};
      for (const server of servers.values())
        if (server.state === "connected") listed[server.name] = server.tools;
      return listed;
    },
    async addServer(name, config) {
      if (closed) throw new ToolnexusError("config:invalid", "This MCP hub is closed");
      await servers.get(name)?.close();
      const server = add(name, config);
      const connected = server.connect();
      initial = initial.then(() => connected);
      await connected;
      return statusOf(server, list().duplicates.get(name));
    },
    async removeServer(name) {
      const server = servers.get(name);
      servers.delete(name);
      await server?.close();
    },
    parkedCount: () => parked.size,
    async close() {
      closed = true;
      parked.dropAll("The host is shutting down");
      const all = [...servers.values()];
      servers.clear();
      await Promise.all(all.map((server) => server.close()));
    },
  };
}

/** Loads a config (path or object) and connects every enabled server; failures are statuses. */
export async function connectMcpHub(mcpConfig: McpConfigInput, options: McpHubOptions = {}): Promise<McpHub> {
  const parsed = await loadMcpConfig(mcpConfig);
  const hub = createMcpHub({ ...options, servers: parsed.servers });
  const problems = parsed.problems;
  await hub.ready();
  if (problems.length === 0) return hub;
  // A malformed entry is reported like a server that failed; the other servers still work.
  return {
    ...hub,
    status(reserved) {
      const failed: McpServerStatus[] = problems.map((problem) => ({
        name: problem.name,
        status: "failed",
        toolCount: 0,
        error: problem.error.message,
      }));
      return [...hub.status(reserved), ...failed];
    },
  };
}
