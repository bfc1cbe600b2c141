import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mintApiToken } from "@/lib/auth/api-token-auth";
import { listApiRequestsByOwner } from "@/lib/db/api-requests";
import { type ApiTokenScope, createApiToken } from "@/lib/db/api-tokens";
import type { DbClient } from "@/lib/db/db-types";
import type { StoredRequest } from "@/lib/db/requests";

// What the MCP tests share: tokens, the official SDK's client, and finding the request a
// waiting call made in the owner's inbox.

export async function tokenFor(
  db: DbClient,
  user: { id: string },
  scopes: ApiTokenScope[] = ["requests:write", "requests:read"],
): Promise<{ token: string; id: string }> {
  const minted = mintApiToken();
  const created = await createApiToken({
    db,
    userId: user.id,
    name: "agent",
    scopes,
    expiresAt: null,
    limit: 20,
    ...minted,
  });
  if (created.status !== "created") throw new Error("the token limit was reached");
  return { token: minted.token, id: created.row.id };
}

export async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export async function requestsOf(db: DbClient, ownerId: string): Promise<StoredRequest[]> {
  return (await listApiRequestsByOwner({ db, ownerId, limit: 100 })).requests;
}

/** The owner's open request once a waiting call has made it. */
export async function openRequestOf(
  db: DbClient,
  ownerId: string,
  timeoutMs = 10_000,
): Promise<StoredRequest> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const open = (await listApiRequestsByOwner({ db, ownerId, status: "open", limit: 2 })).requests;
    if (open.length > 1) throw new Error("more than one open request");
    if (open[0]) return open[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no open request appeared");
}

export async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((part) => part.text ?? "").join("");
}
