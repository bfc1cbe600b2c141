import { expect, test } from "./fixtures";
import { markThisDocument } from "./mark-this-document";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

test("the nav says how many requests wait for you, and keeps the number live", async ({ signInAs, db }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  // Nothing waits for a new user: no number at all.
  await expect(user.shell.link("Inbox")).toBeVisible();
  await expect(user.shell.inboxCount).toHaveCount(0);
  const notReloaded = await markThisDocument(user.page);

  // A question waits for the user themselves: the number appears without a reload.
  await chat.say("book a flight from BER to LIS");
  await expect(chat.requestCard("input")).toBeVisible();
  await expect(user.shell.inboxCount).toHaveText("1 waiting");
  await expect(user.shell.link("Inbox")).toHaveAccessibleName("Inbox 1 waiting");
  await expect(notReloaded).toHaveCount(1);

  // An approval waits for the reviewers, not for the user who asked.
  const reviewer = await signInAs("reviewer");
  // Approvals other journeys left open count too: read the number the page started with.
  const shown = (await reviewer.shell.inboxCount.count())
    ? await reviewer.shell.inboxCount.textContent()
    : "0";
  const before = Number(shown?.match(/\d+/)?.[0] ?? 0);
  await chat.startNewChat();
  await chat.say("deploy v6.6 to production");
  await expect(chat.requestCard("approval")).toBeVisible();
  await expect(reviewer.shell.inboxCount).toHaveText(`${before + 1} waiting`);
  await expect(user.shell.inboxCount).toHaveText("1 waiting");

  // A colleague answers it: it no longer waits, and the first reviewer's number drops live.
  const reviewerPage = await markThisDocument(reviewer.page);
  const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId(), kind: "approval" } });
  const colleague = await signInAs("reviewer");
  const request = new RequestPage(colleague.page);
  await request.goto(row.id);
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");
  await expect(
    before === 0
      ? reviewer.shell.inboxCount
      : reviewer.shell.inboxCount.filter({ hasText: `${before} waiting` }),
  ).toHaveCount(before === 0 ? 0 : 1);
  await expect(reviewerPage).toHaveCount(1);
});
