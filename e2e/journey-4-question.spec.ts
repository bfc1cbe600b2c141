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

test("a question with options is answered with a radio choice next to a free-text one", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("ask me a question");

  const card = chat.requestCard("question", "Which environment do you deploy to most?");
  await expect(card).toBeVisible();
  const environment = card.getByRole("group", {
    name: /Environment: Which environment do you deploy to most\?/,
  });
  await expect(environment.getByRole("radio")).toHaveCount(2);
  await environment.getByRole("radio", { name: "production" }).check();
  await new RequestForm(card).sendAnswer.click();
  await expect(card.getByText("Please answer this question.")).toBeVisible();

  await card.getByLabel("What should I call you?").fill("Ada");
  await new RequestForm(card).sendAnswer.click();
  await expect(card).toContainText("Answered");
  await expect(chat.assistantMessages().last()).toContainText(
    "You answered: Which environment do you deploy to most? → production; What should I call you? → Ada.",
  );
});
