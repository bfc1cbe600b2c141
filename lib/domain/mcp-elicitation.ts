import type { Request } from "@/lib/toolnexus/types";
import { requestKindSpec } from "./request-kinds";

export interface McpElicitation {
  mode: "form" | "url";
  server?: string;
}

/** The `data.mcp` an MCP server's elicitation carries, when the request is one. */
export function mcpElicitationOf(request: Pick<Request, "kind" | "data">): McpElicitation | undefined {
  const mcp = request.data?.mcp;
  if (typeof mcp !== "object" || mcp === null || Array.isArray(mcp)) return undefined;
  const { mode, server } = mcp as Record<string, unknown>;
  const form = requestKindSpec(request.kind).form;
  const expected = form === "input" ? "form" : form === "sign-in" ? "url" : undefined;
  if (expected === undefined || mode !== expected) return undefined;
  return typeof server === "string" ? { mode: expected, server } : { mode: expected };
}
