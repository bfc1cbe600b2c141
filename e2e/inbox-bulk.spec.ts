import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

test("a reviewer filters the inbox through the URL and answers several approvals at once", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  const asks = [
    ["refund order 5101 for $310", "Approve a refund of $310.00 for order 5101?"],
    ["refund order 5102 for $320", "Approve a refund of $320.00 for order 5102?"],
    ["refund order 5103 for $330", "Approve a refund of $330.00 for order 5103?"],
  ] as const;
  for (const [message, prompt] of asks) {
    await chat.startNewChat();
    await chat.say(message);
    await expect(chat.requestCard("approval", prompt)).toBeVisible();
  }

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto();
  await inbox.kind.selectOption("approval");
  await inbox.search.fill("order 510");
  await inbox.sort.selectOption("oldest");
  await inbox.apply.click();
  await expect(reviewer.page).toHaveURL(/\/inbox\?kind=approval&status=open&sort=oldest&q=order\+510$/);
  await expect(inbox.list.getByRole("listitem")).toHaveCount(3);
  await expect(inbox.list.getByRole("listitem").first()).toContainText(asks[0][1]);

  // The filters survive a reload because they live in the URL.
  await reviewer.page.reload();
  await expect(inbox.search).toHaveValue("order 510");
  await expect(inbox.list.getByRole("listitem")).toHaveCount(3);

  await inbox.select(asks[0][1]).check();
  await inbox.select(asks[1][1]).check();
  await inbox.approveSelected.click();
  await expect(inbox.results).toContainText(`${asks[0][1]}: done`);
  await expect(inbox.results).toContainText(`${asks[1][1]}: done`);
  await expect(inbox.list.getByRole("listitem")).toHaveCount(1);

  await inbox.select(asks[2][1]).check();
  await inbox.bulkReason.fill("Over the monthly budget");
  await inbox.declineSelected.click();
  await expect(inbox.empty).toBeVisible();

  await inbox.goto("?kind=approval&status=answered&q=order+510");
  await expect(inbox.list.getByRole("listitem")).toHaveCount(3);

  // The user's last chat was open all along and shows the decline with its reason.
  await expect(chat.requestCard("approval", asks[2][1])).toContainText("Declined");
  await expect(chat.assistantMessages().last()).toContainText("Over the monthly budget");
});
