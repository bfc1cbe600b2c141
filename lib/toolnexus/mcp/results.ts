import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson } from "../checkpoint";
import type { ToolResult } from "../types";
import type { Ask } from "./elicitation";

interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

function describeBlock(block: ContentBlock): string | undefined {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type}${block.mimeType ? `: ${block.mimeType}` : ""}]`;
    case "resource_link":
      return `[resource: ${block.uri ?? block.name ?? "link"}]`;
    case "resource":
      return block.resource?.text ?? `[resource: ${block.resource?.uri ?? "embedded"}]`;
    default:
      return undefined;
  }
}

function repeats(text: string, structured: unknown): boolean {
  try {
    return canonicalJson(JSON.parse(text)) === canonicalJson(structured);
  } catch {
    return false;
  }
}

/**
 * A `tools/call` result as the model sees it: text content joined by newlines (other content
 * named in brackets), `structuredContent` as JSON when the server sent it, and `isError`
 * kept as a tool error.
 */
export function toToolResult(
  result: Record<string, unknown>,
  source: { server: string; tool: string },
): ToolResult {
  const content = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const lines = content.map(describeBlock).filter((line): line is string => line !== undefined);
  const structured = result.structuredContent;
  const hasStructured = typeof structured === "object" && structured !== null;
  const text = lines.join("\n");
  // Servers usually repeat structured content as text; it is added only when it says more.
  const output =
    hasStructured && !repeats(text, structured)
      ? [text, JSON.stringify(structured)].filter(Boolean).join("\n")
      : text;
  const toolResult: ToolResult = { output, isError: result.isError === true };
  // `server` where the reference port puts it; `mcp` says which tool of it answered.
  toolResult.metadata = { server: source.server, mcp: { server: source.server, tool: source.tool } };
  if (hasStructured) toolResult.metadata.structuredContent = structured;
  return toolResult;
}

/** The first URL elicitation of a -32042 error (the spec's error path), if that is what it is. */
export function urlElicitationOf(error: unknown): Ask | undefined {
  if (!(error instanceof McpError) || error.code !== ErrorCode.UrlElicitationRequired) return undefined;
  const list = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list)) return undefined;
  for (const item of list) {
    const candidate = item as Record<string, unknown>;
    if (typeof candidate.url === "string" && typeof candidate.message === "string") {
      return {
        mode: "url",
        message: candidate.message,
        url: candidate.url,
        elicitationId: typeof candidate.elicitationId === "string" ? candidate.elicitationId : "",
        path: "error",
      };
    }
  }
  return undefined;
}

/** How much of a server's own error message a result keeps; the rest is cut. */
export const MAX_SERVER_ERROR_CHARS = 1000;

/**
 * A call the server answered with a JSON-RPC error, as a tool error the model can read: the
 * server's own message (its deliberate answer, cut to a bounded length), or one line for the
 * SDK's own ends of a call (the connection closed, the call timed out).
 */
export function callFailure(error: McpError, server: string, timeoutMs?: number): ToolResult {
  if (error.code === ErrorCode.ConnectionClosed) {
    return {
      output: `MCP server "${server}" closed the connection during the call`,
      isError: true,
      metadata: { server },
    };
  }
  if (error.code === ErrorCode.RequestTimeout) {
    // Our own inactivity timer ends a call through the SDK, which reports it as this code.
    const limit = timeoutMs === undefined ? "in time" : `within ${timeoutMs} ms`;
    return {
      output: `MCP server "${server}" did not answer ${limit}`,
      isError: true,
      metadata: { server },
    };
  }
  const message =
    error.message.length > MAX_SERVER_ERROR_CHARS
      ? `${error.message.slice(0, MAX_SERVER_ERROR_CHARS)}…`
      : error.message;
  return { output: `MCP server "${server}": ${message}`, isError: true, metadata: { server } };
}
