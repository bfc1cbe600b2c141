import { describe, expect, it } from "vitest";
import { mcpSnippets, offersMcp } from "./mcp-snippets";

describe("the MCP set-up shown with a new token", () => {
  it("fills in the app's address and the token", () => {
    const { claude, cursor } = mcpSnippets("https://inbox.example.com/", "tnx_abc");
    expect(claude).toContain(
      'claude mcp add --transport http toolnexus https://inbox.example.com/api/mcp --header "Authorization: Bearer tnx_abc"',
    );
    expect(claude).toContain("--permission-prompt-tool mcp__toolnexus__permission_prompt");
    expect(JSON.parse(cursor)).toEqual({
      mcpServers: {
        toolnexus: { url: "https://inbox.example.com/api/mcp", headers: { Authorization: "Bearer tnx_abc" } },
      },
    });
  });

  it("is offered only for a token with both request scopes", () => {
    expect(offersMcp(["requests:write", "requests:read"])).toBe(true);
    expect(offersMcp(["requests:read"])).toBe(false);
  });
});
