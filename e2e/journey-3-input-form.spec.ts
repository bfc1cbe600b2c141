import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestForm } from "./pages/request-form";

test("an input form shows field errors for invalid values, and a valid submit resumes the run", {
  tag: "@phone",
}, async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("book a flight from BER to LIS");

  const card = chat.requestCard("input", /To book the flight I need/);
  await expect(card).toBeVisible();
  await expect(card).toContainText("You must act");
  const form = new RequestForm(card);
  await expect(form.field("From (airport code)")).toHaveValue("BER");

  await form.field("To (airport code)").fill("lisbon");
  await form.field("Departure date").fill("2031-05-01");
  await form.field("Passengers").fill("12");
  await form.field("Email for the e-ticket").fill("not-an-email");
  await form.submit.click();
  // Refused in the browser: the errors sit next to their fields and nothing reached the server.
  await expect(card.getByText(/must match pattern/).first()).toBeVisible();
  await expect(card.getByText(/must be <= 9/).first()).toBeVisible();
  await expect(card.getByText(/must match format "email"/).first()).toBeVisible();
  await expect(form.sent).toHaveCount(0);
  await expect(chat.toolCard("book_flight")).toContainText("waiting for an answer");

  await form.field("To (airport code)").fill("LIS");
  await form.field("Passengers").fill("2");
  await form.field("Email for the e-ticket").fill("traveller@example.com");
  await form.submit.click();

  await expect(card).toContainText("Answered");
  await expect(chat.toolCard("book_flight")).toContainText(
    /Booked BER → LIS on 2031-05-01 for 2 passengers; booking reference TNX-/,
  );
  await expect(chat.assistantMessages().last()).toContainText("e-ticket to traveller@example.com");
});
