import type { IncomingMessage, ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type Provider from "oidc-provider";

/** The scope the demo bank's MCP server requires for its tools. */
export const TRANSACTIONS_SCOPE = "transactions:read";

/** Each demo account's own recent transactions, so two users can tell whose data they got. */
export const DEMO_TRANSACTIONS: Record<string, { name: string; lines: string[] }> = {
  demo: { name: "Dana Demo", lines: ["2026-11-30 Grocer −42.10 EUR", "2026-11-28 Salary +2,400.00 EUR"] },
  alex: { name: "Alex Example", lines: ["2026-11-29 Bookshop −18.00 EUR", "2026-11-27 Rent −950.00 EUR"] },
};

export interface DemoMcpResourceOptions {
  issuer: string;
  provider: Provider;
  /** What the protected resource metadata names as the resource; tests set another to see it refused. */
  advertisedResource?: string;
  /** Refuse even listing the tools without a token, as many servers do. */
  protectAll?: boolean;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw = "";
  for await (const chunk of req) {
    raw += chunk;
    if (raw.length > 100_000) throw new Error("body too large");
  }
  return raw ? JSON.parse(raw) : undefined;
}

/** Only calling a tool needs the user: anyone may see what the server offers. */
function callsATool(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === "tools/call");
}

function newServer(accountId: string | undefined): McpServer {
  const server = new McpServer({ name: "demo-bank", version: "1.0.0" });
  server.registerTool(
    "recent_transactions",
    {
      title: "Recent transactions",
      description: "The signed-in user's recent transactions at Demo Bank.",
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () => {
      const account = DEMO_TRANSACTIONS[accountId ?? ""];
      if (!account) return { content: [{ type: "text", text: "No such account." }], isError: true };
      return { content: [{ type: "text", text: [`${account.name}:`, ...account.lines].join("\n") }] };
    },
  );
  return server;
}

/**
 * The demo bank's MCP server at `<issuer>/mcp`, protected as the MCP authorization spec says:
 * a tool call without a valid token for this resource is answered 401 with a `WWW-Authenticate`
 * header naming the protected resource metadata (RFC 9728), which names the demo provider as
 * its authorization server. Stateless: every request gets a fresh server.
 */
export function createDemoMcpResource(options: DemoMcpResourceOptions) {
  const resource = `${options.issuer}/mcp`;
  const metadataUrl = `${options.issuer}/.well-known/oauth-protected-resource/mcp`;
  const challenge = {
    "www-authenticate": `Bearer error="invalid_token", resource_metadata="${metadataUrl}", scope="${TRANSACTIONS_SCOPE}"`,
  };

  async function accountOf(req: IncomingMessage): Promise<string | undefined> {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    if (!match) return undefined;
    const token = await options.provider.AccessToken.find(match[1]!);
    if (!token || token.isExpired) return undefined;
    if (![token.aud].flat().includes(resource) || !token.scopes.has(TRANSACTIONS_SCOPE)) return undefined;
    return token.accountId;
  }

  async function serveMcp(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== "POST") return json(res, 405, { error: "method not allowed" });
    const body = await readJson(req);
    const accountId = await accountOf(req);
    if ((options.protectAll || callsATool(body)) && !accountId)
      return json(res, 401, { error: "invalid_token" }, challenge);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = newServer(accountId);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Handles the request when it is the MCP server's; false when it is not. */
  function handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> | undefined {
    if (pathname === "/.well-known/oauth-protected-resource/mcp" && req.method === "GET") {
      json(res, 200, {
        resource: options.advertisedResource ?? resource,
        authorization_servers: [options.issuer],
        scopes_supported: [TRANSACTIONS_SCOPE],
        bearer_methods_supported: ["header"],
        resource_name: "Demo Bank",
      });
      return Promise.resolve();
    }
    if (pathname === "/mcp") return serveMcp(req, res);
    return undefined;
  }

  return { resource, handle };
}
