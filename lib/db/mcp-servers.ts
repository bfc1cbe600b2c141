import "server-only";
import { recordAuditEntry } from "./audit";
import type { DbClient } from "./db-types";
import { toJson } from "./json";
import { engineTransaction } from "./sql/transaction-options";
import { isUniqueViolation } from "./sql/unique-violation";

/** A remote MCP server as stored, sealed headers included: for the connection pool only. */
export interface StoredMcpServer {
  id: string;
  name: string;
  url: string;
  headerNames: string[];
  headersEnc: string | null;
  disabled: boolean;
  updatedAt: Date;
  /** Each user signs in to this server on their own; an admin may name a registered client. */
  oauth: boolean;
  oauthClientId: string | null;
  oauthClientSecretEnc: string | null;
  oauthScope: string | null;
}

/** What an admin page may show: never the sealed headers or client secret. */
export type McpServerSummary = Omit<StoredMcpServer, "headersEnc" | "oauthClientSecretEnc"> & {
  createdAt: Date;
};

const STORED_FIELDS = {
  id: true,
  name: true,
  url: true,
  headerNames: true,
  headersEnc: true,
  disabled: true,
  updatedAt: true,
  oauth: true,
  oauthClientId: true,
  oauthClientSecretEnc: true,
  oauthScope: true,
} as const;

function namesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === "string") : [];
}

export async function listStoredMcpServers({ db }: { db: DbClient }): Promise<StoredMcpServer[]> {
  const rows = await db.mcpServer.findMany({ select: STORED_FIELDS, orderBy: { name: "asc" } });
  return rows.map((row) => ({ ...row, headerNames: namesOf(row.headerNames) }));
}

export async function listMcpServerSummaries({ db }: { db: DbClient }): Promise<McpServerSummary[]> {
  const rows = await db.mcpServer.findMany({
    select: { ...STORED_FIELDS, headersEnc: false, oauthClientSecretEnc: false, createdAt: true },
    orderBy: { name: "asc" },
  });
  return rows.map((row) => ({ ...row, headerNames: namesOf(row.headerNames) }));
}

/** Which servers exist and when each last changed: enough to tell whether a pool is current. */
export async function getMcpServersFingerprint({ db }: { db: DbClient }): Promise<string> {
  const rows = await db.mcpServer.findMany({ select: { id: true, updatedAt: true }, orderBy: { id: "asc" } });
  return rows.map((row) => `${row.id}@${row.updatedAt.getTime()}`).join(",");
}

export type McpServerCreation = { outcome: "created"; id: string } | { outcome: "name_taken" };

/** Adds a server and its audit entry in one transaction; a taken name changes nothing. */
export async function createMcpServer({
  db,
  server,
  actorId,
}: {
  db: DbClient;
  server: {
    name: string;
    url: string;
    headerNames: string[];
    headersEnc: string | null;
    oauth?: { clientId: string | null; clientSecretEnc: string | null; scope: string | null };
  };
  actorId: string;
}): Promise<McpServerCreation> {
  const { oauth, ...plain } = server;
  const oauthColumns = oauth
    ? {
        oauth: true,
        oauthClientId: oauth.clientId,
        oauthClientSecretEnc: oauth.clientSecretEnc,
        oauthScope: oauth.scope,
      }
    : {};
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.mcpServer.create({
        data: { ...plain, ...oauthColumns, headerNames: toJson(server.headerNames), createdById: actorId },
        select: { id: true },
      });
      await recordAuditEntry({
        tx,
        actorId,
        action: "mcp_server.added",
        targetType: "mcp_server",
        targetId: row.id,
        detail: {
          name: server.name,
          url: server.url,
          headerNames: server.headerNames,
          // Which client, never its secret.
          ...(oauth ? { oauth: true, oauthClientId: oauth.clientId } : {}),
        },
      });
      return { outcome: "created" as const, id: row.id };
    }, engineTransaction);
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: "name_taken" };
    throw error;
  }
}

/** Switches a server off or on; false when there is no such server (or it already was so). */
export async function setMcpServerDisabledById({
  db,
  id,
  disabled,
  actorId,
}: {
  db: DbClient;
  id: string;
  disabled: boolean;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const written = await tx.mcpServer.updateMany({ where: { id, disabled: !disabled }, data: { disabled } });
    if (written.count !== 1) return false;
    await recordAuditEntry({
      tx,
      actorId,
      action: disabled ? "mcp_server.disabled" : "mcp_server.enabled",
      targetType: "mcp_server",
      targetId: id,
    });
    return true;
  }, engineTransaction);
}

/** Removes a server; false when there was none to remove. */
export async function deleteMcpServerById({
  db,
  id,
  actorId,
}: {
  db: DbClient;
  id: string;
  actorId: string;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await tx.mcpServer.findUnique({ where: { id }, select: { name: true, url: true } });
    if (!row) return false;
    const removed = await tx.mcpServer.deleteMany({ where: { id } });
    if (removed.count !== 1) return false;
    await recordAuditEntry({
      tx,
      actorId,
      action: "mcp_server.removed",
      targetType: "mcp_server",
      targetId: id,
      detail: { name: row.name, url: row.url },
    });
    return true;
  }, engineTransaction);
}

export async function mcpServerExistsById({ db, id }: { db: DbClient; id: string }): Promise<boolean> {
  return (await db.mcpServer.count({ where: { id } })) > 0;
}
