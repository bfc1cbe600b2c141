import {
  createMcpHub,
  type McpFailure,
  type McpServerConfig,
  parseMcpServer,
  type Tool,
  ToolnexusError,
  type ToolResult,
} from "toolnexus";
import { jsonDepthIssue, MAX_JSON_DEPTH } from "@/lib/http/strict-json";
import { logger } from "@/lib/log/logger";
import { loggableProviderText } from "@/lib/oauth/provider-error";
import type { ConnectionState, McpConnection } from "./mcp-pool";

/**
 * What an MCP server sends is JSON the app accepts, so it is held to the same depth cap as a
 * request body (ADR 0057): a result or an elicitation nested deeper reaches no run, no event
 * and no page, whose recursive walkers it would overflow. The call ends as a tool error.
 */
function withinDepth(server: string, tool: string, result: ToolResult): ToolResult {
  const deep = jsonDepthIssue(result);
  if (!deep) return result;
  return {
    output: `MCP server "${server}" answered ${tool} with JSON nested deeper than ${MAX_JSON_DEPTH} levels (at ${deep.path} of the result); the answer was not used.`,
    isError: true,
  };
}

/**
 * The server's tools with each result checked, and without the tools whose input schema is
 * nested too deeply (the schema goes to the model and the admin pages). One wrapper per tool
 * object, so the same tool is the same object on every listing.
 */
function cappedTools(server: string) {
  const wrapped = new WeakMap<Tool, Tool | null>();
  return (tools: Tool[]) => {
    const offered: Tool[] = [];
    const skipped: string[] = [];
    for (const tool of tools) {
      let capped = wrapped.get(tool);
      if (capped === undefined) {
        capped = jsonDepthIssue(tool.inputSchema)
          ? null
          : {
              ...tool,
              execute: async (args, ctx) => withinDepth(server, tool.name, await tool.execute(args, ctx)),
            };
        wrapped.set(tool, capped);
      }
      if (capped) offered.push(capped);
      else skipped.push(tool.name);
    }
    return { offered, skipped };
  };
}

/**
 * The library's check of one `mcpServers` entry: the entry as the library reads it, or a throw
 * whose message names the field (prefixed with `source`, e.g. the config file).
 */
export function checkServerEntry(name: string, entry: unknown, source?: string): McpServerConfig {
  const config = parseMcpServer(name, entry, source ? { source } : {});
  if (config instanceof ToolnexusError) throw config;
  return config;
}

/**
 * What a server (or whatever answered in its place) said when a connect or a call failed: for
 * operators only, cleaned and cut short like a provider's text, since it is remote text (an
 * error page, words aimed at the model). Results and statuses carry the library's words.
 */
function logFailure({ server, during, error }: McpFailure): void {
  const text = error instanceof Error ? error.message : String(error);
  logger.warn({ mcpServer: server, during, serverText: loggableProviderText(text) }, "MCP server failure");
}

/**
 * One server behind a hub of its own, so a config change reconnects only that server. The hub
 * keeps the calls parked on this server's elicitations while the connection lives.
 */
export async function connectWithLibrary(name: string, config: McpServerConfig): Promise<McpConnection> {
  const authorization = config.transport === "http" ? config.authorization : undefined;
  // Why the last connect failed, for a server whose sign-in failed before it listed anything.
  let connectError: unknown;
  // Calls connecting again right now: such a call hands a failed connect to a sign-in's
  // `authorization.failed`, which logs it, so it is not logged here as well.
  let reconnecting = 0;
  const hub = createMcpHub({
    servers: [{ name, config }],
    onFailure: (failure) => {
      if (failure.during === "connect") connectError = failure.error;
      if (reconnecting > 0 && authorization?.failed && failure.during === "connect") return;
      logFailure(failure);
    },
  });
  await hub.ready();
  const capped = cappedTools(name);
  const tools = () => capped(hub.tools());
  const state = (): ConnectionState => {
    const status = hub.status().find((server) => server.name === name);
    const deep = tools().skipped;
    const skipped =
      [
        status?.duplicates?.length ? `Skipped tools with taken names: ${status.duplicates.join(", ")}` : "",
        deep.length ? `Skipped tools whose input schema is nested too deeply: ${deep.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; ") || undefined;
    if (status?.status === "connected") {
      const toolCount = status.toolCount - deep.length;
      return skipped
        ? { status: "connected", toolCount, error: skipped }
        : { status: "connected", toolCount };
    }
    return { status: "failed", toolCount: 0, error: status?.error ?? "Not connected." };
  };
  return {
    tools: () => tools().offered,
    state,
    async call(tool, args, ctx) {
      let found = tools().offered.find((candidate) => candidate.name === tool);
      if (!found && hub.status().find((server) => server.name === name)?.status === "failed") {
        // Not connected (the user may have signed in since): connect again, then look again.
        connectError = undefined;
        reconnecting += 1;
        try {
          await hub.addServer(name, config);
        } finally {
          reconnecting -= 1;
        }
        found = tools().offered.find((candidate) => candidate.name === tool);
      }
      if (found) return found.execute(args, ctx);
      const status = hub.status().find((server) => server.name === name);
      // A server that refuses even to list its tools until the user signs in.
      if (status?.needsAuthorization && authorization) return authorization.pending(ctx);
      // A sign-in that failed while connecting reads as one failing during the call.
      if (status?.status === "failed" && authorization?.failed && connectError !== undefined) {
        return authorization.failed(connectError, ctx);
      }
      const now = state();
      // Not reached (refused, down, crashed at start): the status's words, never the server's.
      if (now.status === "failed") {
        return {
          output: `MCP server "${name}" cannot be reached now: ${now.error}`,
          isError: true,
          metadata: { server: name },
        };
      }
      return { output: `MCP server "${name}" does not offer ${tool} now`, isError: true };
    },
    close: () => hub.close(),
  };
}
