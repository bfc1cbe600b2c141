import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

// A version of this run only, so the search below never meets another test's deploy.
const version = `v9.${Date.now() % 100_000}`;
const PROMPT = `Approve deploying web ${version} to production?`;

test("a reviewer decides an approval beside the list, with its arguments, its asker and its chat, and edits it", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say(`deploy ${version} to production`);
  await expect(chat.requestCard("approval", PROMPT)).toBeVisible();

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto(`?q=${encodeURIComponent(version)}`);
  await expect(inbox.detail).toContainText("Select a request to see it here.");
  await inbox.selectRow(PROMPT);
  await expect(reviewer.page).toHaveURL(/\/inbox\?q=[^&]+&selected=[a-z0-9]+$/);
  await expect(inbox.row(PROMPT).getByRole("link", { name: PROMPT })).toHaveAttribute("aria-current", "true");
  await expect(inbox.detail).toContainText("from the deploy tool");
  await expect(inbox.detail).toContainText(`Asked by ${user.user.name}`);
  await expect(inbox.detail.locator("time.expiry")).toHaveText(/(23h \d+m|1d 0h) left/);
  // The context sits folded under the decision.
  await inbox.detail.getByText("The chat so far").click();
  const conversation = inbox.detail.getByRole("region", { name: "The chat that led to this request" });
  await expect(conversation).toContainText(`User: deploy ${version} to production`);
  await expect(inbox.detailForm.declineReason).toBeVisible();
  await expectAccessible(reviewer.page);

  // The selection lives in the URL: a reload shows the same request.
  await reviewer.page.reload();
  await expect(inbox.detailShows(PROMPT)).toBeVisible();

  await inbox.detailForm.field("Version").fill(`${version}.1`);
  await inbox.detailForm.approve.click();
  await inbox.detailForm.expectReadOnly("Approved");
  await expect(inbox.detail).toContainText(`By ${reviewer.user.name}`);
  const diff = inbox.detail.getByRole("table", { name: "Arguments changed by the reviewer" });
  // The field by its label and the values in words: no path, no JSON.
  const changed = diff.getByRole("row", { name: /^Version/ });
  await expect(changed.getByRole("cell").nth(0)).toHaveText(version);
  await expect(changed.getByRole("cell").nth(1)).toHaveText(`${version}.1`);
  // Answered, it leaves the list of open requests; the pane still shows what was decided.
  await expect(inbox.row(PROMPT)).toHaveCount(0);
  await expect(reviewer.page).toHaveURL(/selected=/);
  await expectAccessible(reviewer.page);

  await expect(chat.requestCard("approval", PROMPT)).toContainText("Approved");
});

test("on a phone the split view is the list, then the selected request, then back", async ({
  signInAs,
  browser,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const phoneVersion = `${version}1`;
  const prompt = `Approve deploying web ${phoneVersion} to production?`;
  await chat.startNewChat();
  await chat.say(`deploy ${phoneVersion} to production`);
  await expect(chat.requestCard("approval", prompt)).toBeVisible();

  const reviewer = await signInAs("reviewer");
  const storage = await reviewer.context.storageState();
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: storage });
  try {
    const page = await phone.newPage();
    const inbox = new InboxPage(page);
    await inbox.goto(`?q=${encodeURIComponent(phoneVersion)}`);
    await expect(inbox.list).toBeVisible();
    await expect(inbox.detail).toBeHidden();
    await inbox.selectRow(prompt);
    await expect(inbox.list).toBeHidden();
    await expect(inbox.detail.getByRole("heading", { level: 2 })).toBeInViewport();
    await expect(inbox.detailShows(prompt)).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await inbox.detailForm.declineWith("Not this week");
    await inbox.detailForm.expectReadOnly("Declined");
    await page.getByRole("link", { name: "Back to the list" }).click();
    await expect(inbox.list.or(inbox.empty)).toBeVisible();
    await expect(inbox.detail).toBeHidden();
  } finally {
    await phone.close();
  }
});
