import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestForm } from "./pages/request-form";
import { RequestPage } from "./pages/request-page";

const PROMPT = "Approve deploying web v1.4 to production?";

test("a production deploy waits for a reviewer, and the user's open chat moves on without a reload", {
  tag: "@phone",
}, async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("deploy v1.4 to production");

  const card = chat.requestCard("approval", PROMPT);
  await expect(card).toBeVisible();
  await expect(card).toContainText("A reviewer must act");
  await expect(card).toContainText("Waiting for a reviewer.");
  await expect(card.locator("time")).toHaveText(/(23h \d+m|1d 0h) left/);
  await expect(new RequestForm(card).approve).toHaveCount(0);
  await expect(chat.toolCard("deploy")).toContainText("waiting for an answer");

  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto();
  await expect(inbox.row(PROMPT).first()).toContainText(`asked by ${user.user.name}'s chat`);
  await inbox.open(PROMPT);
  const request = new RequestPage(reviewer.page);
  await request.expectPrompt(PROMPT);
  await expect(request.form.field("Version")).toHaveValue("v1.4");
  await request.form.field("Note (optional)").fill("Ship it");
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");
  await expect(
    reviewer.page.getByRole("region", { name: "Answer" }).getByText(`By ${reviewer.user.name}`),
  ).toBeVisible();
  // Once answered, nobody must act any more: the page says so nowhere.
  await expect(reviewer.page.getByRole("main")).not.toContainText("must act");

  // The user's tab was never reloaded: the stream carried the answer, the tool result and the reply.
  await expect(card).toContainText("Approved");
  await expect(card).toContainText("By a reviewer");
  await expect(card).not.toContainText("must act");
  await expect(chat.toolCard("deploy")).toContainText(/Deployed web v1\.4 to production \(deployment DEP-/);
  await expect(chat.toolCard("deploy")).toContainText('Reviewer\'s note: "Ship it"');
  await expect(chat.assistantMessages().last()).toContainText(/Deployed web v1\.4 to production/);
  await expect(chat.input).toBeEditable();
  await expect(chat.send).toBeDisabled();
});
