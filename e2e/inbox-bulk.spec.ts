import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

test("a reviewer filters the inbox through the URL and answers several approvals at once", {
  tag: "@phone",
}, async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  // Order numbers of this run only: the search and counts below must not meet requests that
  // other tests (or earlier runs against the same database) left behind.
  const series = `B${Date.now().toString(36).toUpperCase()}`;
  const ask = (n: number) => {
    const order = `${series}-${n}`;
    const amount = 300 + n * 10;
    return [
      `refund order ${order} for $${amount}`,
      `Approve a refund of $${amount}.00 for order ${order}?`,
    ] as const;
  };
  const asks = [ask(1), ask(2), ask(3)] as const;
  for (const [message, prompt] of asks) {
    await chat.startNewChat();
    await chat.say(message);
    await expect(chat.requestCard("approval", prompt)).toBeVisible();
  }

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto();
  await inbox.openFilters();
  await inbox.kind.selectOption("approval");
  await inbox.search.fill(`order ${series}`);
  await inbox.sort.selectOption("oldest");
  await inbox.apply.click();
  await expect(reviewer.page).toHaveURL(
    new RegExp(`/inbox\\?kind=approval&status=open&sort=oldest&q=order\\+${series}$`),
  );
  await expect(inbox.list.getByRole("listitem")).toHaveCount(3);
  await expect(inbox.list.getByRole("listitem").first()).toContainText(asks[0][1]);

  // The filters survive a reload because they live in the URL.
  await reviewer.page.reload();
  await inbox.openFilters();
  await expect(inbox.search).toHaveValue(`order ${series}`);
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
  // The batch that emptied the list still says how it went.
  await expect(inbox.results).toContainText(`${asks[2][1]}: done`);

  await inbox.goto(`?kind=approval&status=answered&q=order+${series}`);
  await expect(inbox.list.getByRole("listitem")).toHaveCount(3);

  // The user's last chat was open all along and shows the decline with its reason.
  await expect(chat.requestCard("approval", asks[2][1])).toContainText("Declined");
  await expect(chat.assistantMessages().last()).toContainText("Over the monthly budget");
});
