import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CancelledNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { publicErrorOf } from "@/app/_lib/public-error";
import { reportUnexpected } from "@/app/_lib/report-unexpected";
import { authenticateApiToken, countApiCall, ensureScope, type TokenCaller } from "@/lib/auth/api-token-auth";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { AppError, errorHeaders } from "@/lib/errors";
import type { HttpRefusal } from "@/lib/http/refusal";
import { readJsonBody } from "@/lib/http/request-body-check";
import { registerMcpTools } from "./mcp-tools";
import { waitingCallsOf } from "./waiting-calls";

// The MCP server at /api/mcp (ADR 0064): Streamable HTTP without sessions, so every POST is
// served on its own by a fresh server and any instance can serve any call. A waiting tool call
// holds its POST's event stream open; its answer reaches it through the engine's bus, from
// whichever instance took it.

export interface McpServices {
  db: DbClient;
  engine: Engine;
  bus: EventBus;
}

// Each server would otherwise build its own Ajv, with every format added, to check what a
// client sends back to an elicitation (these tools never ask for one): some 18 KB of a server's
// 22 KB, held for as long as its call waits. The validator only caches compiled schemas.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** A refusal before any JSON-RPC is read: the HTTP status, and a JSON-RPC error saying why. */
function refusal(error: unknown, headers: Record<string, string> = {}): Response {
  reportUnexpected("MCP call refused", error);
  const body = publicErrorOf(error);
  const challenge: Record<string, string> =
    body.status === 401 ? { "WWW-Authenticate": 'Bearer realm="toolnexus"' } : {};
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: -32001, message: body.message, data: { code: body.code } } },
    {
      status: body.status,
      headers: { "Cache-Control": "no-store", ...errorHeaders(body), ...challenge, ...headers },
    },
  );
}

/** The token, both request scopes (the tools make requests and read their answers), the rate. */
async function admit(db: DbClient, request: Request): Promise<TokenCaller | Response> {
  try {
    const authorization = request.headers.get("authorization");
    if (!authorization) {
      throw new AppError("unauthorized:token", {
        message: "No API token: send one made at /settings/tokens as `Authorization: Bearer <token>`.",
      });
    }
    const caller = await authenticateApiToken({ db, authorization });
    ensureScope(caller, "requests:write");
    ensureScope(caller, "requests:read");
    const rate = await countApiCall({ db, tokenId: caller.tokenId });
    if (rate.status === "throttled") {
      return refusal(new AppError("rate_limited:token"), { "Retry-After": String(rate.retryAfterSeconds) });
    }
    return caller;
  } catch (error) {
    return refusal(error);
  }
}

/** A body the app does not accept (over the size limit, malformed, repeated keys, nested too deep). */
function bodyRefusal(refused: HttpRefusal): Response {
  // -32700 is JSON-RPC's parse error; the HTTP status and `data` carry the app's own refusal.
  const data = { code: refused.code, issues: refused.issues };
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: refused.message, data } },
    { status: refused.status, headers: { "Cache-Control": "no-store" } },
  );
}

export async function serveMcp(request: Request, services: McpServices): Promise<Response> {
  if (request.method !== "POST") {
    // Without sessions there is nothing to stream to or close: each call answers on its own POST.
    const refused = new AppError("method_not_allowed:route", {
      message:
        "/api/mcp takes POST only: it keeps no sessions, so there is no stream to open (GET) or end (DELETE); send each JSON-RPC message as a POST.",
    });
    return refusal(refused, { Allow: "POST" });
  }
  const caller = await admit(services.db, request);
  if (caller instanceof Response) return caller;
  // The body is read as every other JSON body of the app is (ADR 0057): counted, no repeated
  // keys, at most 64 levels deep; the SDK then takes it parsed instead of parsing it again.
  const body = await readJsonBody(request);
  if (body.status === "refused") return bodyRefusal(body.refusal);

  const server = new McpServer(
    { name: "toolnexus", version: "1.0.0" },
    { capabilities: { tools: {} }, jsonSchemaValidator },
  );
  const waits = waitingCallsOf(services);
  registerMcpTools(server, { ...services, caller, httpSignal: request.signal, waits });
  // A cancel comes on a POST of its own, maybe to another instance than the call's: it is told
  // to every instance, and the one holding the call (by token and JSON-RPC id) withdraws it.
  server.server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const { requestId } = notification.params;
    if (requestId === undefined) return;
    await services.bus.signal({ type: "mcp_call_cancelled", tokenId: caller.tokenId, callId: requestId });
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  // The client dropping its connection stops the waiting call (its request stays open for a repeat).
  request.signal.addEventListener("abort", () => void server.close(), { once: true });
  try {
    return await transport.handleRequest(request, { parsedBody: body.value });
  } catch (error) {
    await server.close();
    return refusal(error);
  }
}
