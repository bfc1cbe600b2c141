import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { DemoBankPage } from "./pages/demo-bank-page";
import { McpServersPage } from "./pages/mcp-servers-page";

// The quick start's Demo Bank MCP server (in the demo provider, the app's port + 1) needs each
// user's own sign-in: MCP authorization with dynamic client registration, PKCE and `resource`.

const providerLink = /^Continue to localhost:\d+$/;

function recordCallback(page: Page): () => string {
  let callback = "";
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.url().includes("/oauth/mcp/bank/callback"))
      callback = request.url();
  });
  return () => callback;
}

async function askForTransactions(chat: ChatPage) {
  await chat.startNewChat();
  await chat.say("show my transactions");
  const card = chat.requestCard("authorization", "Sign in to bank");
  await expect(card).toBeVisible();
  return card;
}

test.describe("MCP servers that need each user's sign-in", () => {
  test("chat → sign-in card → Demo Bank consent → back in the chat with the tool's result", async ({
    signInAs,
    db,
  }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    const callbackUrl = recordCallback(user.page);
    const card = await askForTransactions(chat);
    const link = card.getByRole("link", { name: providerLink });
    await expect(link).toHaveAttribute("href", /\/oauth\/mcp\/bank\/start\?request=auth-/);
    await link.click();

    const bank = new DemoBankPage(user.page);
    await bank.signInAsDemo();
    await expect(user.page.getByText("transactions:read")).toBeVisible();
    await bank.allow.click();

    await expect(user.page).toHaveURL(/\/chat\/[^/]+$/);
    await expect(chat.assistantMessages().last()).toContainText("Dana Demo:");
    await expect(chat.assistantMessages().last()).toContainText("Grocer");
    await expect(chat.requestCard("authorization")).toContainText("Answered");

    const connection = await db.mcpConnection.findFirstOrThrow({ where: { userId: user.user.id } });
    expect(connection).toMatchObject({ server: "bank", scopes: "transactions:read" });
    const answer = await db.answer.findFirstOrThrow({ where: { request: { threadId: chat.threadId() } } });
    expect(answer.data).toEqual({ provider: "mcp:bank", server: "bank" });

    // A replayed callback is refused and changes nothing.
    const replayed = callbackUrl();
    expect(replayed).toContain("state=");
    const answersBefore = await db.answer.count();
    const response = await user.page.goto(replayed);
    expect(response?.status()).toBe(409);
    await expect(user.page.getByTestId("oauth-error")).toHaveText("This sign-in link has already been used");
    expect(await db.answer.count()).toBe(answersBefore);

    // Listed beside the OAuth providers; disconnecting revokes and deletes the tokens.
    await user.page.goto("/settings/connections");
    const item = user.page.getByTestId("mcp-connection-bank");
    await expect(item).toContainText("transactions:read");
    await item.getByRole("button", { name: "Disconnect bank" }).click();
    await expect(item).toContainText("Not connected");
    expect(await db.mcpConnection.count({ where: { userId: user.user.id } })).toBe(0);
  });

  test("another user can neither start nor finish someone else's sign-in", async ({ signInAs, db }) => {
    const owner = await signInAs("user");
    const chat = new ChatPage(owner.page);
    await askForTransactions(chat);
    const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId() } });

    const stranger = await signInAs("user");
    const start = await stranger.page.goto(
      `/oauth/mcp/bank/start?request=${encodeURIComponent(row.requestId)}`,
    );
    // To them the owner's request does not exist.
    expect(start?.status()).toBe(404);
    expect(await db.oAuthState.count({ where: { requestRowId: row.id } })).toBe(0);

    // The owner signs in; the stranger then arrives at the callback with the owner's code and
    // state. The account check comes first, so they are told so and get nothing.
    const callbackUrl = recordCallback(owner.page);
    await chat.requestCard("authorization").getByRole("link", { name: providerLink }).click();
    const bank = new DemoBankPage(owner.page);
    await bank.signInAsDemo();
    await bank.allow.click();
    await expect(chat.assistantMessages().last()).toContainText("Dana Demo:");
    const stolen = await stranger.page.goto(callbackUrl());
    expect(stolen?.status()).toBe(403);
    await expect(stranger.page.getByTestId("oauth-error")).toHaveText(
      "This sign-in was started by a different account",
    );
    expect(await db.mcpConnection.count({ where: { userId: stranger.user.id } })).toBe(0);
    expect(await db.mcpConnection.count({ where: { userId: owner.user.id } })).toBe(1);
  });

  test("an admin adds a server each user signs in to, with a client whose secret is never shown", async ({
    signInAs,
  }) => {
    const admin = await signInAs("admin");
    const servers = new McpServersPage(admin.page);
    await servers.goto();
    await expect(servers.row("bank")).toContainText("Each user signs in (client registered dynamically)");
    await expect(servers.row("bank")).toContainText("Connected");

    const secret = `cs-${Date.now().toString(36)}-do-not-show`;
    // The demo provider (and its MCP server) runs on the app's port + 1.
    const url = `http://localhost:${Number(new URL(admin.page.url()).port) + 1}/mcp`;
    await servers.name.fill("bankcopy");
    await servers.url.fill(url);
    await servers.form.getByLabel("Each user signs in (MCP authorization, OAuth)").check();
    await servers.form.getByLabel("Client ID").fill("toolnexus-copy");
    await servers.form.getByLabel("Client secret").fill(secret);
    await servers.add.click();
    await expect(servers.formStatus).toHaveText("Added bankcopy.");
    const row = servers.row("bankcopy");
    await expect(row).toContainText("Each user signs in (client toolnexus-copy)");
    await expect(row).toContainText("Connected");
    await admin.page.reload();
    expect(await admin.page.content()).not.toContain(secret);

    admin.page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Remove bankcopy" }).click();
    await expect(servers.row("bankcopy")).toHaveCount(0);
  });
});
