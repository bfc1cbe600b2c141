import { getAppServices } from "@/app/_lib/app-services";
import { serveMcp } from "./_lib/serve-mcp";

// The MCP server for agents outside the app (ADR 0064); see _lib/serve-mcp.ts.
async function handle(request: Request): Promise<Response> {
  const { db, engine, bus } = await getAppServices();
  return serveMcp(request, { db, engine, bus });
}

export const dynamic = "force-dynamic";

// Every method reaches serveMcp, so the ones it does not take get its JSON-RPC 405 with an Allow
// header rather than Next's empty one.
export const POST = handle;
export const GET = handle;
export const DELETE = handle;
export const PUT = handle;
export const PATCH = handle;
