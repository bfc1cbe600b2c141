import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

// Order numbers of this run only, so requests other tests leave behind never match.
const series = `K${Date.now().toString(36).toUpperCase()}`;
const refund = (n: number) =>
  [`refund order ${series}-${n} for $120`, `Approve a refund of $120.00 for order ${series}-${n}?`] as const;

test("a reviewer triages the inbox from the keyboard: move, open, approve, decline with a reason, select, search", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const asks = [refund(1), refund(2), refund(3)] as const;
  for (const [message, prompt] of asks) {
    await chat.startNewChat();
    await chat.say(message);
    await expect(chat.requestCard("approval", prompt)).toBeVisible();
  }

  const reviewer = await signInAs("reviewer");
  const { page } = reviewer;
  const inbox = new InboxPage(page);
  await inbox.goto(`?sort=oldest&q=${encodeURIComponent(`order ${series}`)}`);
  await expect(inbox.list.getByRole("listitem")).toHaveCount(3);
  const link = (n: 0 | 1 | 2) => inbox.list.getByRole("link", { name: asks[n][1] });

  // ? lists the shortcuts; Escape closes the list again.
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Approve the open request");
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  await page.keyboard.press("j");
  await expect(link(0)).toBeFocused();
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await expect(link(2)).toBeFocused();
  await page.keyboard.press("k");
  await expect(link(1)).toBeFocused();
  await page.keyboard.press("k");
  await page.keyboard.press("Enter");
  await expect(inbox.detail.getByRole("heading", { level: 2, name: asks[0][1] })).toBeVisible();
  await expect(page).toHaveURL(/selected=/);

  // a approves what the pane shows.
  await page.keyboard.press("a");
  await inbox.detailForm.expectReadOnly("Approved");
  await expect(inbox.row(asks[0][1])).toHaveCount(0);

  // d puts the cursor in the reason, and the d itself is not typed into it.
  await page.keyboard.press("j");
  await expect(link(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(inbox.detail.getByRole("heading", { level: 2, name: asks[1][1] })).toBeVisible();
  await page.keyboard.press("d");
  await expect(inbox.detailForm.declineReason).toBeFocused();
  await expect(inbox.detailForm.declineReason).toHaveValue("");
  // Typing in the field fires no shortcut: these letters are the reason, nothing is approved.
  await page.keyboard.type("a duplicate");
  await expect(inbox.detailForm.declineReason).toHaveValue("a duplicate");
  await page.keyboard.press("Tab");
  await expect(inbox.detailForm.decline).toBeFocused();
  await page.keyboard.press("Enter");
  await inbox.detailForm.expectReadOnly("Declined");
  await expect(inbox.detail).toContainText("Reason: a duplicate");

  // x selects the row the keyboard is on, for the bulk bar.
  await page.keyboard.press("j");
  await expect(link(2)).toBeFocused();
  await page.keyboard.press("x");
  await expect(inbox.select(asks[2][1])).toBeChecked();
  await expect(page.getByText("1 selected")).toBeVisible();

  // / goes to the search box, where j, k and x are letters again.
  await page.keyboard.press("/");
  await expect(inbox.search).toBeFocused();
  await inbox.search.press("End");
  await page.keyboard.type(" jkx");
  await expect(inbox.search).toHaveValue(`order ${series} jkx`);
  await expect(inbox.select(asks[2][1])).toBeChecked();
});
