import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestForm } from "./pages/request-form";

/** A calendar date `days` from today on this machine (the browser's clock and time zone). */
function dayFromToday(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

// --danger in app/globals.css (light scheme): an invalid field's edge.
const DANGER = "rgb(179, 38, 30)";

test("the flight form refuses a past date before sending, marking the field and saying what it expects", {
  tag: "@phone",
}, async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("book a flight from BER to LIS");

  const card = chat.requestCard("input", /To book the flight I need/);
  await expect(card).toBeVisible();
  const form = new RequestForm(card);
  // The cursor starts in the form, not in the message box that waits meanwhile.
  await expect(form.field("From (airport code)")).toBeFocused();
  await expect(form.field("To (airport code)")).toHaveAttribute("placeholder", "e.g. JFK");
  const today = dayFromToday(0);
  await expect(form.field("Departure date")).toHaveAttribute("min", today);

  await form.field("To (airport code)").fill("lisbon");
  await form.field("Departure date").fill(dayFromToday(-1));
  await form.field("Passengers").fill("2");
  await form.field("Email for the e-ticket").fill("traveller@example.com");
  await form.submit.click();

  const date = form.field("Departure date");
  await expect(date).toHaveAttribute("aria-invalid", "true");
  await expect(date).toHaveCSS("border-top-color", DANGER);
  await expect(date).toHaveAccessibleDescription(`Departure date must be today (${today}) or later.`);
  await expect(
    card.getByText("To (airport code) is not in the expected form: write it like JFK."),
  ).toHaveCount(1);
  await expect(form.field("Passengers")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.field("Passengers")).not.toHaveCSS("border-top-color", DANGER);
  await expect(form.sent).toHaveCount(0);
  await expect(chat.toolCard("book_flight")).toContainText("waiting for an answer");

  await form.field("To (airport code)").fill("LIS");
  await date.fill(today);
  await form.submit.click();
  await expect(card).toContainText("Answered");
  await expect(chat.toolCard("book_flight")).toContainText(`Booked BER → LIS on ${today} for 2 passengers`);
});

test("a tool that refuses an answer asks again, saying why and filled in, and the run goes on", {
  tag: "@phone",
}, async ({ signInAs }) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("book a flight from BER to LIS");

  const first = chat.requestCard("input", /To book the flight I need/);
  const form = new RequestForm(first);
  await expect(form.field("From (airport code)")).toBeFocused();
  // Nothing in the form can tell that both airports are the same; the tool can.
  await form.field("To (airport code)").fill("BER");
  await form.field("Departure date").fill(dayFromToday(30));
  await form.field("Passengers").fill("2");
  await form.field("Email for the e-ticket").fill("traveller@example.com");
  await form.submit.click();
  await expect(first).toContainText("Answered");

  const again = chat.requestCard(
    "input",
    "The flight could not be booked: from and to must differ. Please correct the details.",
  );
  await expect(again).toBeVisible();
  await expect(again).toContainText("You must act");
  const retry = new RequestForm(again);
  await expect(retry.field("To (airport code)")).toHaveValue("BER");
  await expect(retry.field("Email for the e-ticket")).toHaveValue("traveller@example.com");
  await expect(retry.field("From (airport code)")).toBeFocused();
  // The run did not end: it waits on the same call, and no reply was written yet.
  await expect(chat.toolCard("book_flight")).toContainText("waiting for an answer");
  await expect(chat.stop).toBeVisible();

  await retry.field("To (airport code)").fill("LIS");
  await retry.submit.click();
  await expect(again).toContainText("Answered");
  await expect(chat.toolCard("book_flight")).toContainText(/Booked BER → LIS on .* for 2 passengers/);
  await expect(chat.assistantMessages().last()).toContainText("e-ticket to traveller@example.com");
});
