// The demo model's MCP requests: the bundled ticket tracker in plain words, and any MCP tool by
// its name ("call tickets_list_tickets", "call everything_echo {"message":"hi"}").

/** The bundled demo server's name in mcp.demo.json; its tools are `tickets_<tool>`. */
export const DEMO_MCP_SERVER = "tickets";

export const TICKET_TOOLS = {
  list: `${DEMO_MCP_SERVER}_list_tickets`,
  delete: `${DEMO_MCP_SERVER}_delete_ticket`,
  open: `${DEMO_MCP_SERVER}_open_ticket`,
} as const;

/** The Demo Bank's MCP server in mcp.demo.json: each user signs in to it with their own account. */
export const BANK_TRANSACTIONS_TOOL = "bank_recent_transactions";

export type McpIntent = { kind: "call"; tool: string; args: Record<string, unknown>; preface: string };

function parseCall(message: string): McpIntent | undefined {
  const match =
    /^(?:please\s+)?(?:call|use|run)\s+(?:the\s+)?(?:tool\s+)?([A-Za-z0-9_-]+)(?:\s+(?:with\s+)?(\{[\s\S]*\}))?\s*$/i.exec(
      message,
    );
  if (!match) return undefined;
  let args: Record<string, unknown> = {};
  if (match[2]) {
    try {
      const parsed: unknown = JSON.parse(match[2]);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
      args = parsed as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  const tool = match[1]!;
  return { kind: "call", tool, args, preface: `Calling ${tool}.` };
}

function parseTickets(message: string): McpIntent | undefined {
  const remove = /\b(?:delete|remove|close)\s+ticket\s+#?(\d+)\b/i.exec(message);
  if (remove) {
    const id = Number(remove[1]);
    return { kind: "call", tool: TICKET_TOOLS.delete, args: { id }, preface: `Deleting ticket ${id}.` };
  }
  if (/\b(?:open|create|file|new)\s+(?:a\s+|new\s+)*ticket\b/i.test(message)) {
    return { kind: "call", tool: TICKET_TOOLS.open, args: {}, preface: "Opening a ticket." };
  }
  if (/\b(?:list|show)\b.*\btickets\b|\bmy\s+tickets\b/i.test(message)) {
    return { kind: "call", tool: TICKET_TOOLS.list, args: {}, preface: "Listing the tickets." };
  }
  return undefined;
}

function parseTransactions(message: string): McpIntent | undefined {
  if (!/\btransactions\b/i.test(message)) return undefined;
  return {
    kind: "call",
    tool: BANK_TRANSACTIONS_TOOL,
    args: {},
    preface: "Reading your recent transactions.",
  };
}

export function parseMcpIntent(text: string): McpIntent | undefined {
  const message = text.trim();
  return parseCall(message) ?? parseTickets(message) ?? parseTransactions(message);
}
