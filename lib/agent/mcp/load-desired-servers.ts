import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { type McpServerConfig, validateMcpConfig } from "toolnexus";
import { checkServerEntry } from "./library-connection";
import type { DesiredServer, DesiredServers } from "./mcp-pool";

/** A remote server as the admins' list holds it, headers still sealed. */
export interface AdminServerRow {
  name: string;
  url: string;
  headersEnc: string | null;
  disabled: boolean;
  oauth?: boolean;
  oauthClientId?: string | null;
  oauthClientSecretEnc?: string | null;
  oauthScope?: string | null;
}

export interface ServerSources {
  /** The server's own config file (TOOLNEXUS_MCP_CONFIG); the only place a stdio server may come from. */
  configFile?: string;
  listAdminServers: () => Promise<AdminServerRow[]>;
  openHeaders: (serverName: string, sealed: string | null) => Record<string, string>;
  /** Opens the client secret an admin entered; throws when it cannot be read. */
  openClientSecret?: (serverName: string, sealed: string) => string;
}

/** The `oauth` entry of an admin's server, its client secret opened; undefined when not marked. */
function oauthEntryOf(row: AdminServerRow, sources: ServerSources): Record<string, string> | undefined {
  if (!row.oauth) return undefined;
  const oauth: Record<string, string> = {};
  if (row.oauthClientId) oauth.clientId = row.oauthClientId;
  if (row.oauthScope) oauth.scope = row.oauthScope;
  if (row.oauthClientSecretEnc && sources.openClientSecret) {
    oauth.clientSecret = sources.openClientSecret(row.name, row.oauthClientSecretEnc);
  }
  return oauth;
}

function keyOf(entry: McpServerConfig): string {
  return createHash("sha256").update(JSON.stringify(entry)).digest("base64url");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function enabledOrDisabled(
  name: string,
  origin: DesiredServer["origin"],
  config: McpServerConfig,
): DesiredServer {
  return config.disabled
    ? { name, origin, status: "disabled" }
    : { name, origin, status: "enabled", entry: config, key: keyOf(config) };
}

/** The library's reading of the file: each server checked on its own, messages naming file and field. */
function parseConfigFile(file: string, text: string): DesiredServers {
  let parsed: ReturnType<typeof validateMcpConfig>;
  try {
    parsed = validateMcpConfig(text, { source: file });
  } catch (error) {
    return { servers: [], configError: messageOf(error) };
  }
  const servers = parsed.servers.map(({ name, config }) => enabledOrDisabled(name, "config", config));
  for (const problem of parsed.problems) {
    servers.push({ name: problem.name, origin: "config", status: "invalid", error: problem.error.message });
  }
  return { servers };
}

/**
 * Reads what the pool should have connected: the config file's servers (re-read only when the
 * file changes) followed by the admins' remote servers. Problems are reported per server, never
 * thrown, so a broken entry or an unreadable file never stops the app or the other servers.
 */
export function createServerLoader(sources: ServerSources): () => Promise<DesiredServers> {
  let cached: { stamp: string; result: DesiredServers } | undefined;

  const readConfig = async (): Promise<DesiredServers> => {
    const file = sources.configFile;
    if (!file) return { servers: [] };
    let stamp: string;
    try {
      const info = await stat(file);
      stamp = `${info.mtimeMs}:${info.size}`;
    } catch (error) {
      return { servers: [], configError: `${file}: cannot be read (${messageOf(error)})` };
    }
    if (cached?.stamp !== stamp) {
      const text = await readFile(file, "utf8").catch((error: unknown) => error);
      const result =
        typeof text === "string"
          ? parseConfigFile(file, text)
          : { servers: [], configError: `${file}: cannot be read (${messageOf(text)})` };
      for (const server of result.servers) {
        if (server.status === "invalid") console.error(`[mcp] ${server.name}: ${server.error}`);
      }
      if (result.configError) console.error(`[mcp] ${result.configError}`);
      cached = { stamp, result };
    }
    return cached.result;
  };

  return async () => {
    const config = await readConfig();
    const fromFile = new Set(config.servers.map((server) => server.name));
    const rows = await sources.listAdminServers();
    const added = rows.map((row): DesiredServer => {
      const where = `server "${row.name}"`;
      const base = { name: row.name, origin: "admin" as const };
      if (fromFile.has(row.name)) {
        return {
          ...base,
          status: "invalid",
          error: `${where}: the config file defines a server of this name`,
        };
      }
      if (row.disabled) return { ...base, status: "disabled" };
      let headers: Record<string, string>;
      let oauth: Record<string, string> | undefined;
      try {
        headers = sources.openHeaders(row.name, row.headersEnc);
        oauth = oauthEntryOf(row, sources);
      } catch {
        return {
          ...base,
          status: "invalid",
          error: `${where}: its stored headers or client secret cannot be decrypted with the current key`,
        };
      }
      const entry = {
        url: row.url,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        ...(oauth ? { oauth } : {}),
      };
      try {
        return enabledOrDisabled(row.name, "admin", checkServerEntry(row.name, entry, where));
      } catch (error) {
        return { ...base, status: "invalid", error: messageOf(error) };
      }
    });
    const servers = [...config.servers, ...added];
    return config.configError ? { servers, configError: config.configError } : { servers };
  };
}
