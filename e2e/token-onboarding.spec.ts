import { execFileSync } from "node:child_process";
import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";

test("a new token comes with a Copy button and ready-to-run snippets that carry it", async ({
  signInAs,
  db,
}) => {
  const owner = await signInAs("user", "Snippet owner");
  const { page } = owner;
  await owner.context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/settings/tokens");
  await page.getByLabel("Name").fill("first try");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = ((await page.getByTestId("new-token").textContent()) ?? "").trim();
  expect(token).toMatch(/^tnx_/);

  await page.getByRole("button", { name: "Copy the token" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const curl = (await page.getByTestId("snippet-curl").textContent()) ?? "";
  const library = (await page.getByTestId("snippet-library").textContent()) ?? "";
  expect(curl).toContain(`Bearer ${token}`);
  expect(library).toContain(`token: "${token}"`);
  expect(library).toContain("createInboxWaitFor");
  await page.getByText("Use it from Claude Code, Cursor or any MCP client").click();
  await expect(page.getByTestId("mcp-setup")).toContainText(`Bearer ${token}`);
  await expect(page.getByTestId("mcp-setup")).toContainText("/api/mcp");
  await expectAccessible(page);

  // Ready to run as shown: the curl command makes a request in the owner's inbox.
  const made = JSON.parse(execFileSync("bash", ["-c", curl], { encoding: "utf8" })) as { id: string };
  const stored = await db.request.findUniqueOrThrow({ where: { id: made.id } });
  expect([stored.ownerId, stored.prompt]).toEqual([owner.user.id, "Deploy v1.4 to production?"]);
});

test("an empty chat offers example prompts that fill the message box", async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  const examples = user.page.getByRole("region", { name: "Try asking" });
  await expect(examples.getByRole("button")).toHaveCount(4);
  await expectAccessible(user.page);
  await examples.getByRole("button", { name: "Refund order 1042 for $120" }).click();
  await expect(chat.input).toHaveValue("Refund order 1042 for $120");
  await expect(chat.input).toBeFocused();
  await chat.send.click();
  await expect(examples).toHaveCount(0);
});
