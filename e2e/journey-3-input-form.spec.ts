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
  // The fields come in the order the tool's schema declares, in a titled group styled like a card.
  const fields = [
    "From (airport code)",
    "To (airport code)",
    "Departure date",
    "Passengers",
    "Email for the e-ticket",
  ];
  await expect(card.locator(".tn-schema-form label")).toHaveText(fields.map((name) => `${name}*`));
  const group = card.getByRole("group", { name: "Your answer" });
  await expect(group).toBeVisible();
  await expect(group).toHaveCSS("border-top-style", "solid");

  // Nothing but the known airports: each missing field is named once, in words, and focus goes
  // to the first of them.
  await form.submit.click();
  await expect(card.getByRole("alert")).toHaveText(
    "3 fields need a change: see the highlighted fields below.",
  );
  for (const name of fields.slice(2)) {
    await expect(card.getByText(`${name} is required.`)).toHaveCount(1);
    await expect(form.field(name)).toHaveAttribute("aria-invalid", "true");
  }
  await expect(form.field("To (airport code)")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.field("Departure date")).toBeFocused();
  await expect(card).not.toContainText("must have required property");

  await form.field("To (airport code)").fill("lisbon");
  await form.field("Departure date").fill("2031-05-01");
  await form.field("Passengers").fill("12");
  await form.field("Email for the e-ticket").fill("not-an-email");
  await form.submit.click();
  // Refused in the browser: the errors sit next to their fields and nothing reached the server.
  await expect(
    card.getByText("To (airport code) is not in the expected form: write it like JFK."),
  ).toHaveCount(1);
  await expect(card.getByText("Passengers must be 9 or less.")).toHaveCount(1);
  await expect(card.getByText("Email for the e-ticket must be an email address.")).toHaveCount(1);
  await expect(form.field("Departure date")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.field("To (airport code)")).toBeFocused();
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
