import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";

const PROMPT = "Link your tracker account in the browser";

test("a server's URL elicitation is a link card in the chat: finished goes through, decline reaches the server", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();

  await chat.say("call tickets_link_account");
  // The tool is neither read-only nor destructive: the chat's owner approves the call first.
  await chat.approveOpenApproval();
  const card = chat.requestCard("authorization", PROMPT);
  await expect(card).toContainText("You must act", { timeout: 30_000 });
  await expect(card.getByText(PROMPT)).toHaveCount(1);
  // The link leaves the app for the server's page, and says where it goes.
  const link = card.getByRole("link", { name: /^Open localhost:\d+$/ });
  await expect(link).toHaveAttribute("href", /^https?:\/\/[^/]+\/tracker\/link/);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(card).toContainText("The “tickets” server asks you to open");
  await card.getByRole("button", { name: "I have finished there" }).click();
  await expect(chat.toolCard("tickets_link_account")).toContainText("Your tracker account is linked.");
  await expect(card).toContainText("Answered");

  await chat.say("call tickets_link_account");
  await chat.approveOpenApproval();
  const second = chat.requestCard("authorization", PROMPT).and(chat.page.locator(".pending-card-open"));
  await expect(second).toContainText("You must act", { timeout: 30_000 });
  await second.getByRole("button", { name: "Decline", exact: true }).click();
  await expect(chat.toolCard("tickets_link_account").last()).toContainText(
    "The account was not linked (decline).",
  );
});
