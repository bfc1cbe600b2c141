import "server-only";
import type { DbClient } from "./db-types";

/** One user's sealed tokens for one MCP server. */
export interface McpConnectionRow {
  id: string;
  userId: string;
  server: string;
  issuer: string;
  scopes: string;
  tokensEnc: string;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a settings page may show: never the sealed tokens. */
export type McpConnectionSummary = Pick<McpConnectionRow, "server" | "issuer" | "scopes" | "updatedAt">;

export interface SealedMcpTokens {
  issuer: string;
  scopes: string;
  tokensEnc: string;
  expiresAt: Date | null;
}

export async function upsertMcpConnection({
  db,
  userId,
  server,
  tokens,
}: {
  db: DbClient;
  userId: string;
  server: string;
  tokens: SealedMcpTokens;
}): Promise<void> {
  await db.mcpConnection.upsert({
    where: { userId_server: { userId, server } },
    create: { userId, server, ...tokens },
    update: tokens,
  });
}

export async function getMcpConnectionByUserServer({
  db,
  userId,
  server,
}: {
  db: DbClient;
  userId: string;
  server: string;
}): Promise<McpConnectionRow | null> {
  return db.mcpConnection.findUnique({ where: { userId_server: { userId, server } } });
}

export async function listMcpConnectionsByUser({
  db,
  userId,
}: {
  db: DbClient;
  userId: string;
}): Promise<McpConnectionSummary[]> {
  return db.mcpConnection.findMany({
    where: { userId },
    orderBy: { server: "asc" },
    select: { server: true, issuer: true, scopes: true, updatedAt: true },
  });
}

/** `tokensEnc` narrows the delete to the tokens found bad, so a fresh sign-in survives it. */
export async function deleteMcpConnection({
  db,
  userId,
  server,
  tokensEnc,
}: {
  db: DbClient;
  userId: string;
  server: string;
  tokensEnc?: string;
}): Promise<number> {
  const result = await db.mcpConnection.deleteMany({
    where: { userId, server, ...(tokensEnc ? { tokensEnc } : {}) },
  });
  return result.count;
}

/** The client registered dynamically at a server's authorization server, still sealed. */
export async function getMcpOAuthClientByServer({
  db,
  server,
}: {
  db: DbClient;
  server: string;
}): Promise<{ issuer: string; clientInfoEnc: string } | null> {
  return db.mcpOAuthClient.findUnique({ where: { server }, select: { issuer: true, clientInfoEnc: true } });
}

export async function upsertMcpOAuthClient({
  db,
  server,
  issuer,
  clientInfoEnc,
}: {
  db: DbClient;
  server: string;
  issuer: string;
  clientInfoEnc: string;
}): Promise<void> {
  await db.mcpOAuthClient.upsert({
    where: { server },
    create: { server, issuer, clientInfoEnc },
    update: { issuer, clientInfoEnc },
  });
}

export async function deleteMcpOAuthClient({ db, server }: { db: DbClient; server: string }): Promise<void> {
  await db.mcpOAuthClient.deleteMany({ where: { server } });
}
