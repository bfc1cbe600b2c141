import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "./fixtures";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";

// Claude Code's permission prompt through the production entry: an MCP client (the official
// SDK's, as Claude Code's is) waits on /api/mcp while a reviewer on a phone edits and approves.

const PROMPT = "Claude Code wants to run Bash: `npm publish`";

test("a reviewer on a phone approves an MCP client's permission prompt while it waits", {
  tag: "@phone",
}, async ({ signInAs, baseURL }) => {
  test.setTimeout(120_000);
  const owner = await signInAs("user", "Agent owner");
  await owner.page.goto("/settings/tokens");
  await owner.page.getByLabel("Name").fill("claude code");
  await owner.page.getByRole("button", { name: "Create token" }).click();
  const token = (await owner.page.getByTestId("new-token").textContent())!.trim();
  const setup = owner.page.getByTestId("mcp-setup");
  await expect(setup.locator("summary")).toHaveText("Use it from Claude Code, Cursor or any MCP client");
  await expect(setup).toContainText(
    `claude mcp add --transport http toolnexus ${baseURL}/api/mcp --header "Authorization: Bearer ${token}"`,
  );

  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const call = client.callTool(
      {
        name: "permission_prompt",
        arguments: {
          tool_name: "Bash",
          input: { command: "npm publish" },
          tool_use_id: `toolu_${Date.now()}`,
        },
      },
      undefined,
      { timeout: 90_000 },
    );

    const reviewer = await signInAs("reviewer", "Phone reviewer");
    const inbox = new InboxPage(reviewer.page);
    await inbox.goto();
    await expect(inbox.row(PROMPT).first()).toContainText(`asked by ${owner.user.name} via API token`);
    await inbox.open(PROMPT);
    const request = new RequestPage(reviewer.page);
    await request.expectPrompt(PROMPT);
    await expect(request.form.field("command")).toHaveValue("npm publish");
    await request.form.field("command").fill("npm publish --dry-run");
    await request.form.approve.click();
    await request.form.expectReadOnly("Approved");

    const result = await call;
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(JSON.parse(text)).toEqual({
      behavior: "allow",
      updatedInput: { command: "npm publish --dry-run" },
    });
  } finally {
    await client.close();
  }
});
