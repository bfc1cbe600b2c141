import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";

const PROMPT = "Approve deploying web v2.1 to production?";

test("a reviewer declines with a reason, and the model's reply carries it", async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("deploy v2.1 to production");
  const card = chat.requestCard("approval", PROMPT);
  await expect(card).toBeVisible();

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto("?kind=approval");
  await inbox.open(PROMPT);
  const request = new RequestPage(reviewer.page);
  await request.form.declineWith("Change freeze until Monday");
  await request.form.expectReadOnly("Declined");
  await expect(reviewer.page.getByText("Reason: Change freeze until Monday")).toBeVisible();
  await expect(reviewer.page.getByRole("main")).not.toContainText("must act");

  await expect(card).toContainText("Declined");
  // Declined has its own colour, never the green of an approval.
  await expect(card.locator(".badge-declined")).toHaveText("Declined");
  await expect(card.locator(".badge-approved")).toHaveCount(0);
  await expect(card).not.toContainText("must act");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("The deploy did not go ahead.");
  await expect(reply).toContainText("Change freeze until Monday");
});
