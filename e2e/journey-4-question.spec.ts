import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestForm } from "./pages/request-form";

test("a question is answered inline in the chat and the run goes on", async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("ask me about my favourite colour");

  const card = chat.requestCard("question", "My favourite colour?");
  await expect(card).toBeVisible();
  const form = new RequestForm(card);
  await form.sendAnswer.click();
  await expect(card.getByText("Please answer this question.")).toBeVisible();

  await form.field("My favourite colour?").fill("green");
  await form.sendAnswer.click();

  await expect(card).toContainText("Answered");
  await expect(card).toContainText("By you");
  await expect(chat.assistantMessages().last()).toContainText("You answered: My favourite colour? → green.");
});
