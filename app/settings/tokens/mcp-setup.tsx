"use client";

import { useEffect, useState } from "react";
import { mcpSnippets, offersMcp } from "./_lib/mcp-snippets";

/** How to hand the new token to Claude Code or Cursor, with this app's address filled in. */
export function McpSetup({ token, scopes }: { token: string; scopes: string[] }) {
  // The address the browser reached the app at; read after mounting, as the server cannot know it.
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => setOrigin(window.location.origin), []);
  if (!offersMcp(scopes) || origin === null) return null;
  const { claude, cursor } = mcpSnippets(origin, token);
  return (
    <details className="stack" data-testid="mcp-setup">
      <summary>Use it from Claude Code, Cursor or any MCP client</summary>
      <p>Claude Code: add the server, then let the inbox answer its permission prompts.</p>
      <pre className="tn-json">{claude}</pre>
      <p>
        Cursor: in <code>.cursor/mcp.json</code>
      </p>
      <pre className="tn-json">{cursor}</pre>
    </details>
  );
}
