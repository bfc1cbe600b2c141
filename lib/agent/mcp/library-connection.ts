import { createMcpHub, type McpServerConfig, parseMcpServer, ToolnexusError } from "toolnexus";
import type { McpConnection } from "./mcp-pool";

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
 * One server behind a hub of its own, so a config change reconnects only that server. The hub
 * keeps the calls parked on this server's elicitations while the connection lives.
 */
export async function connectWithLibrary(name: string, config: McpServerConfig): Promise<McpConnection> {
  const hub = createMcpHub({ servers: [{ name, config }] });
  await hub.ready();
  return {
    tools: () => hub.tools(),
    state: () => {
      const status = hub.status().find((server) => server.name === name);
      const skipped = status?.duplicates?.length
        ? `Skipped tools with taken names: ${status.duplicates.join(", ")}`
        : undefined;
      if (status?.status === "connected") {
        return skipped
          ? { status: "connected", toolCount: status.toolCount, error: skipped }
          : { status: "connected", toolCount: status.toolCount };
      }
      return { status: "failed", toolCount: 0, error: status?.error ?? "Not connected." };
    },
    async call(tool, args, ctx) {
      let found = hub.tools().find((candidate) => candidate.name === tool);
      if (!found && hub.status().find((server) => server.name === name)?.status === "failed") {
        // Not connected (the user may have signed in since): connect again, then look again.
        await hub.addServer(name, config);
        found = hub.tools().find((candidate) => candidate.name === tool);
      }
      if (found) return found.execute(args, ctx);
      const status = hub.status().find((server) => server.name === name);
      const authorization = config.transport === "http" ? config.authorization : undefined;
      // A server that refuses even to list its tools until the user signs in.
      if (status?.needsAuthorization && authorization) return authorization.pending(ctx);
      return { output: `MCP server "${name}" does not offer ${tool} now`, isError: true };
    },
    close: () => hub.close(),
  };
}
