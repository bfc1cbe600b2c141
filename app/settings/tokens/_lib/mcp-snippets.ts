// The set-up lines for MCP clients with a new token filled in, as the README shows them
// (ADR 0064). They need both request scopes: the MCP tools make requests and wait for answers.

export const MCP_SCOPES = ["requests:write", "requests:read"] as const;

export function mcpSnippets(origin: string, token: string): { claude: string; cursor: string } {
  const url = `${origin.replace(/\/+$/, "")}/api/mcp`;
  return {
    claude: [
      `claude mcp add --transport http toolnexus ${url} --header "Authorization: Bearer ${token}"`,
      `claude -p --permission-prompt-tool mcp__toolnexus__permission_prompt "Publish the package"`,
    ].join("\n"),
    cursor: JSON.stringify(
      { mcpServers: { toolnexus: { url, headers: { Authorization: `Bearer ${token}` } } } },
      null,
      2,
    ),
  };
}

export function offersMcp(scopes: readonly string[]): boolean {
  return MCP_SCOPES.every((scope) => scopes.includes(scope));
}
