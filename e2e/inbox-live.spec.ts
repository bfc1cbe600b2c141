import { expect, test } from "./fixtures";
import { markThisDocument } from "./mark-this-document";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";

// Order numbers of this run only, so requests other tests leave behind never match.
const series = `L${Date.now().toString(36).toUpperCase()}`;
const refund = (n: number) =>
  [`refund order ${series}-${n} for $250`, `Approve a refund of $250.00 for order ${series}-${n}?`] as const;

test("a reviewer's open inbox shows new and answered approvals without a reload, keeping what they selected and typed", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const [firstAsk, firstPrompt] = refund(1);
  await chat.startNewChat();
  await chat.say(firstAsk);
  await expect(chat.requestCard("approval", firstPrompt)).toBeVisible();

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto("?kind=approval");
  await expect(inbox.live).toHaveText("Live");
  await expect(inbox.row(firstPrompt)).toHaveCount(1);
  await inbox.select(firstPrompt).check();
  await inbox.search.fill("typed, not applied");
  await inbox.bulkReason.fill("half a reason");
  const notReloaded = await markThisDocument(reviewer.page);

  const [secondAsk, secondPrompt] = refund(2);
  await chat.startNewChat();
  await chat.say(secondAsk);
  await expect(chat.requestCard("approval", secondPrompt)).toBeVisible();

  await expect(inbox.row(secondPrompt)).toHaveCount(1);
  await expect(inbox.row(secondPrompt)).toContainText(`asked by ${user.user.name}'s chat`);
  await expect(inbox.select(firstPrompt)).toBeChecked();
  await expect(inbox.select(secondPrompt)).not.toBeChecked();
  await expect(reviewer.page.getByText("1 selected")).toBeVisible();
  await expect(inbox.search).toHaveValue("typed, not applied");
  await expect(inbox.bulkReason).toHaveValue("half a reason");
  await expect(reviewer.page).toHaveURL(/\/inbox\?kind=approval$/);
  await expect(notReloaded).toHaveCount(1);

  // Another reviewer approves the new one on its own page, while this reviewer has it selected.
  await inbox.select(secondPrompt).check();
  await expect(reviewer.page.getByText("2 selected")).toBeVisible();
  const colleague = await signInAs("reviewer");
  const colleagueInbox = new InboxPage(colleague.page);
  await colleagueInbox.goto(`?kind=approval&q=${encodeURIComponent(`order ${series}-2`)}`);
  await colleagueInbox.open(secondPrompt);
  const request = new RequestPage(colleague.page);
  await request.expectPrompt(secondPrompt);
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");

  await expect(inbox.row(secondPrompt)).toHaveCount(0);
  await expect(inbox.row(firstPrompt)).toHaveCount(1);
  await expect(inbox.select(firstPrompt)).toBeChecked();
  await expect(reviewer.page.getByText("1 selected")).toBeVisible();
  await expect(inbox.live).toHaveText("Live");
  await expect(notReloaded).toHaveCount(1);

  // Its answer shows as such under the answered filter, which the live page did not need.
  await inbox.goto(`?kind=approval&status=answered&q=${encodeURIComponent(`order ${series}`)}`);
  await expect(inbox.row(secondPrompt)).toContainText("Approved");
});

test("the inbox stream answers 401 to someone signed out", async ({ request }) => {
  const response = await request.get("/api/inbox/stream");
  expect(response.status()).toBe(401);
});
