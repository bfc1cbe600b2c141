import "server-only";
import type { McpPool, McpServerState } from "@/lib/agent/mcp/mcp-pool";
import type { DbClient } from "@/lib/db/db-types";
import { listMcpServerSummaries } from "@/lib/db/mcp-servers";

/** One row of the servers table; header values never leave the server, only their names. */
export interface ServerRow {
  name: string;
  origin: McpServerState["origin"];
  status: McpServerState["status"];
  toolCount: number;
  error?: string;
  /** Each user signs in to it; `client` names the admin's registered client, if any. */
  perUser?: { client?: string };
  /** Present for servers added here: what the admin may disable or remove. */
  admin?: { id: string; url: string; headerNames: string[]; disabled: boolean };
}

export interface ServersSection {
  rows: ServerRow[];
  configError?: string;
}

/** The pool's live status merged with what the admins added. */
export async function loadServersSection({
  db,
  mcp,
}: {
  db: DbClient;
  mcp: McpPool;
}): Promise<ServersSection> {
  const [status, added] = await Promise.all([mcp.status(), listMcpServerSummaries({ db })]);
  const byName = new Map(added.map((server) => [server.name, server]));
  const rows = status.servers.map((server): ServerRow => {
    const stored = server.origin === "admin" ? byName.get(server.name) : undefined;
    const row: ServerRow = {
      name: server.name,
      origin: server.origin,
      status: server.status,
      toolCount: server.toolCount,
    };
    if (server.error) row.error = server.error;
    if (server.perUser) row.perUser = stored?.oauthClientId ? { client: stored.oauthClientId } : {};
    if (stored) {
      row.admin = {
        id: stored.id,
        url: stored.url,
        headerNames: stored.headerNames,
        disabled: stored.disabled,
      };
    }
    return row;
  });
  return status.configError ? { rows, configError: status.configError } : { rows };
}
