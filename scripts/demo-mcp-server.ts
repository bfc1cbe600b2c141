/**
 * The project's demo MCP server: a small ticket tracker.
 *
 *   npx tsx scripts/demo-mcp-server.ts                  # stdio (how the app's demo runs it)
 *   npx tsx scripts/demo-mcp-server.ts --http 3430      # Streamable HTTP at http://127.0.0.1:3430/mcp
 *   npx tsx scripts/demo-mcp-server.ts --sse 3431       # the older HTTP+SSE transport
 *
 * Options: --state <file> keeps the tickets in a JSON file (default: in memory);
 * --link-url <url> is where its URL elicitations send the user; --test-tools adds the tools the
 * test suite uses; --log <file> appends one line per notable event (tests read it).
 */
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { registerTestTools } from "./demo-mcp/test-tools";
import { createTicketStore } from "./demo-mcp/ticket-store";
import { registerTicketTools } from "./demo-mcp/ticket-tools";

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const store = createTicketStore(option("--state") ?? process.env.DEMO_MCP_STATE);
const linkUrl = option("--link-url") ?? process.env.DEMO_MCP_LINK_URL ?? "http://localhost:3001/tracker/link";
const logFile = option("--log");
const log = (line: string) => {
  if (logFile) appendFileSync(logFile, `${line}\n`);
};
process.on("exit", () => log("exit"));

function newServer(): McpServer {
  const server = new McpServer({ name: "toolnexus-demo-tracker", version: "1.0.0" });
  // Every call is logged, so tests can tell how often the server really ran a tool.
  const register = server.registerTool.bind(server);
  server.registerTool = ((name: string, config: never, handler: (...args: unknown[]) => unknown) =>
    register(name, config, ((...args: unknown[]) => {
      log(`call ${name}`);
      return handler(...args);
    }) as never)) as typeof server.registerTool;
  registerTicketTools(server, store, linkUrl);
  if (process.argv.includes("--test-tools")) registerTestTools(server, log);
  server.server.oninitialized = () => log("initialized");
  return server;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? JSON.parse(raw) : undefined;
}

function serveStreamableHttp(port: number): void {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith("/mcp")) return void res.writeHead(404).end();
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      if (req.method !== "POST" || id !== undefined) return void res.writeHead(404).end();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await newServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, req.method === "POST" ? await body(req) : undefined);
  }).listen(port, "127.0.0.1", () => log(`listening ${port}`));
}

function serveSse(port: number): void {
  const sessions = new Map<string, SSEServerTransport>();
  createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/mcp") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      await newServer().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport) {
      return void (await transport.handlePostMessage(req, res, await body(req)));
    }
    // Anything else, a Streamable HTTP handshake included, is not for this older transport.
    res.writeHead(405).end();
  }).listen(port, "127.0.0.1", () => log(`listening ${port}`));
}

const httpPort = option("--http");
const ssePort = option("--sse");
if (httpPort) serveStreamableHttp(Number(httpPort));
else if (ssePort) serveSse(Number(ssePort));
else {
  await newServer().connect(new StdioServerTransport());
  // The host is gone (even killed): a parked question's timer must not keep this process alive.
  process.stdin.on("end", () => process.exit(0));
}
