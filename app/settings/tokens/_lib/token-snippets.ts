// Ready-to-run lines for a new token, with this app's address and the token filled in: a first
// request with curl, and the library's `createInboxWaitFor` in an agent of one's own. The MCP
// client set-up is in mcp-snippets.ts.

export function tokenSnippets(origin: string, token: string): { curl: string; library: string } {
  const base = origin.replace(/\/+$/, "");
  return {
    curl: [
      `curl -X POST ${base}/api/v1/requests \\`,
      `  -H "Authorization: Bearer ${token}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '{"kind":"approval","prompt":"Deploy v1.4 to production?"}'`,
    ].join("\n"),
    library: [
      `import { createClient, createInboxWaitFor } from "toolnexus";`,
      "",
      "const client = createClient({",
      "  // …your model and tools…",
      "  waitFor: createInboxWaitFor({",
      `    baseUrl: "${base}",`,
      `    token: "${token}",`,
      `    scope: "deploy-42", // one per job: the same question in one scope is one request`,
      "  }),",
      "});",
    ].join("\n"),
  };
}
