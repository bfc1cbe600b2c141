import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { AppShell } from "./pages/app-shell";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { LoginPage } from "./pages/login-page";

/**
 * Moves focus with Tab (or Shift+Tab) alone until `target` has it, as a keyboard user would;
 * fails if it never does.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, limit = 150 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error(`Tab never reached ${target}`);
}

// Everything below goes through the keyboard: no click, tap or fill. Navigating by URL stands
// for typing it into the address bar.
test("a reviewer signs in, chats and approves from the inbox with the keyboard alone", async ({
  page,
  createUser,
}) => {
  const reviewer = await createUser("reviewer");
  const version = `v9.${Date.now() % 100_000}`;
  const prompt = `Approve deploying web ${version} to production?`;
  const login = new LoginPage(page);
  // Straight to the chat: a reviewer with approvals waiting would otherwise start on the inbox.
  await login.goto("/chat");
  await tabTo(page, login.email);
  await page.keyboard.type(reviewer.email);
  await page.keyboard.press("Tab");
  await expect(login.password).toBeFocused();
  await page.keyboard.type(reviewer.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/chat$/);

  const chat = new ChatPage(page);
  await tabTo(page, chat.newChat);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  await tabTo(page, chat.input);
  await page.keyboard.type(`deploy ${version} to production`);
  await page.keyboard.press("Enter");
  const card = chat.requestCard("approval", prompt);
  await expect(card).toContainText("A reviewer must act");

  const inboxLink = new AppShell(page).link("Inbox");
  const chatUrl = page.url();
  await tabTo(page, inboxLink, { backwards: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/inbox/);
  const inbox = new InboxPage(page);
  await expect(inbox.row(prompt)).toBeVisible();
  await tabTo(page, inbox.select(prompt));
  await page.keyboard.press("Space");
  await expect(inbox.select(prompt)).toBeChecked();
  await tabTo(page, inbox.approveSelected);
  await page.keyboard.press("Enter");
  await expect(inbox.row(prompt)).toHaveCount(0);

  await page.goto(chatUrl);
  await expect(card).toContainText("Approved");
  await expect(chat.toolCard("deploy")).toContainText(`Deployed web ${version} to production`);
});
