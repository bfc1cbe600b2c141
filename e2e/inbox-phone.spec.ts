import type { Locator } from "@playwright/test";
import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { AppShell } from "./pages/app-shell";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

// Measured at 390 × 844 before: a reviewer landed on the chat with the count behind "Menu 5",
// the filters filled the first screen, checkboxes were 13 px, every row said "approval · open",
// and a "Keyboard shortcuts" link showed. A finger needs 44 CSS px.
const TAP = 44;

async function expectTappable(target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.height, `${what} is a finger high`).toBeGreaterThanOrEqual(TAP);
  expect(box!.width, `${what} is a finger wide`).toBeGreaterThanOrEqual(TAP);
}

test("a reviewer on a phone lands on the inbox, with the count in the header, the filters folded, finger-sized rows and no shortcut hints @phone-only", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const series = `P${Date.now().toString(36).toUpperCase()}`;
  const prompts: string[] = [];
  for (const amount of [310, 420]) {
    await chat.startNewChat();
    await chat.say(`refund order ${series}-${amount} for $${amount}`);
    const prompt = `Approve a refund of $${amount}.00 for order ${series}-${amount}?`;
    await expect(chat.requestCard("approval", prompt)).toBeVisible();
    prompts.push(prompt);
  }

  const reviewer = await signInAs("reviewer");
  const { page } = reviewer;
  const shell = new AppShell(page);
  const inbox = new InboxPage(page);
  // The home page decides on the server: something waits, so the inbox.
  await page.goto("/");
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();

  // The count is in the header, outside the closed menu.
  const waiting = shell.nav.getByTestId("header-inbox-count");
  await expect(waiting).toBeInViewport();
  await expect(waiting).toHaveText(/^\d+ waiting/);
  await expect(shell.menu).toHaveAttribute("aria-expanded", "false");

  // The filters fold behind one button that names those in force.
  await expect(inbox.filtersToggle).toHaveAccessibleName("Filters: Open · Newest first");
  await expect(inbox.filtersToggle).toHaveAttribute("aria-expanded", "false");
  await expect(inbox.kind).toBeHidden();

  // No keyboard hints on a touch screen.
  await expect(page.getByRole("button", { name: "Keyboard shortcuts" })).toBeHidden();
  await expect(page.locator(".kbd-hint:visible")).toHaveCount(0);

  // Rows say what differs: the tool and the amount, who asked; no "approval · open" badges.
  const row = inbox.row(prompts[0]!);
  await expect(row).toContainText("refund");
  await expect(row).toContainText("$310.00");
  await expect(row).toContainText("asked by");
  await expect(row.locator(".badge")).toHaveCount(0);
  await expect(row).not.toContainText(/\bapproval\b|\bopen\b/);

  // Everything a finger uses is at least 44 px; the bulk bar waits for a selection.
  const bulk = page.getByRole("region", { name: "Answer selected approvals" });
  await expect(bulk).toBeHidden();
  await expectTappable(waiting, "the header's count");
  await expectTappable(shell.menu, "the menu button");
  await expectTappable(inbox.filtersToggle, "the filters button");
  await expectTappable(row.locator("label.inbox-check"), "a row's checkbox");
  await expectTappable(row.getByRole("link", { name: prompts[0]! }), "a row's link");

  // A selection brings the bulk bar, stuck to the bottom of the screen.
  for (const prompt of prompts) await inbox.select(prompt).check();
  await expect(bulk).toBeInViewport();
  await expect(bulk).toHaveCSS("position", "sticky");
  await expect(bulk).toContainText("2 selected");
  await expectTappable(inbox.approveSelected, "Approve selected");

  await inbox.openFilters();
  await expectTappable(inbox.apply, "Apply");
  await expectAccessible(page);

  await inbox.approveSelected.click();
  for (const prompt of prompts) await expect(inbox.results).toContainText(`${prompt}: done`);
});

test("someone who reviews nothing lands on the chat", async ({ signInAs }) => {
  const { page } = await signInAs("user");
  await page.goto("/");
  await expect(page).toHaveURL(/\/chat$/);
});
