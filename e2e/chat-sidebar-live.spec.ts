import { expect, test } from "./fixtures";
import { markThisDocument } from "./mark-this-document";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";

// An order number of this run only, so requests other tests leave behind never match.
const order = `S${Date.now().toString(36).toUpperCase()}`;
const REFUND = `refund order ${order} for $250`;
const REFUND_PROMPT = `Approve a refund of $250.00 for order ${order}?`;
const FLIGHT = "book a flight";

test("the chat sidebar shows which chat waits for the user, and follows a reviewer's answer without a reload", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say(REFUND);
  await expect(chat.requestCard("approval", REFUND_PROMPT)).toBeVisible();
  const refundItem = chat.sidebarItem(REFUND);
  await expect(refundItem).toHaveAccessibleName(`${REFUND} Waiting for a reviewer`);

  await chat.startNewChat();
  const flightThread = chat.threadId();
  await chat.say(FLIGHT);
  const form = chat.requestCard("input", /To book the flight I need/);
  await expect(form).toBeVisible();
  const flightItem = chat.sidebarItem(FLIGHT);
  await expect(flightItem).toHaveAccessibleName(`${FLIGHT} Needs you`);
  await expect(flightItem).toHaveAttribute("aria-current", "page");
  await expect(refundItem).toHaveAccessibleName(`${REFUND} Waiting for a reviewer`);
  const notReloaded = await markThisDocument(user.page);

  // A reviewer approves the refund in a browser of their own, while the user stays on the flight.
  const reviewer = await signInAs("reviewer");
  const inbox = new InboxPage(reviewer.page);
  await inbox.goto(`?kind=approval&q=${encodeURIComponent(`order ${order}`)}`);
  await inbox.open(REFUND_PROMPT);
  const request = new RequestPage(reviewer.page);
  await request.expectPrompt(REFUND_PROMPT);
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");

  await expect(refundItem).toHaveAccessibleName(REFUND);
  await expect(flightItem).toHaveAccessibleName(`${FLIGHT} Needs you`);
  await expect(user.page).toHaveURL(new RegExp(`/chat/${flightThread}$`));
  await expect(form).toBeVisible();
  await expect(notReloaded).toHaveCount(1);
});

test("the chat sidebar's stream answers 401 to someone signed out", async ({ request }) => {
  const response = await request.get("/api/threads/stream");
  expect(response.status()).toBe(401);
});
