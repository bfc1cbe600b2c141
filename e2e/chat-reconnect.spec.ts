import { gate } from "@/lib/db/testing/gate";
import { approveAndWaitForTheRunToEnd } from "./approve-and-wait-for-the-run-to-end";
import { test as base, expect, type SignedIn } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { TcpRelay } from "./tcp-relay";

// The user's browser reaches the app through a relay, so the test can cut the live stream the
// way a server restart or a proxy does (the page's fetch fails with "TypeError: network error"),
// and holds or refuses the reattaches that follow with routes.

const test = base.extend<{ relay: TcpRelay }>({
  relay: async ({ baseURL }, use) => {
    const relay = await TcpRelay.start(Number(new URL(baseURL ?? "").port));
    await use(relay);
    await relay.close();
  },
});

const PROMPT = /Approve a refund of \$250\.00 for order 4321/;
const PREFACE = "Requesting a refund of $250.00 for order 4321.";
const STREAM = /\/api\/threads\/[^/]+\/stream/;

async function parkARefund(user: SignedIn, origin: string): Promise<ChatPage> {
  const chat = new ChatPage(user.page);
  await chat.startNewChat(origin);
  await chat.say("refund order 4321 for $250");
  await expect(chat.requestCard("approval", PROMPT)).toContainText("Waiting for a reviewer.");
  // The sidebar follows the park with a page refresh of its own; let it land first, so no
  // test below cuts it half-way or has it meet a session the test has just ended.
  await expect(chat.sidebarItem("refund order 4321")).toHaveAccessibleName(/Waiting for a reviewer/);
  return chat;
}

async function expectTheRefundOnce(chat: ChatPage): Promise<void> {
  const card = chat.requestCard("approval", PROMPT);
  await expect(chat.toolCard("refund")).toContainText(/Refunded \$250\.00/);
  await expect(card).toContainText("Approved");
  await expect(card).toHaveCount(1);
  await expect(chat.toolCard("refund")).toHaveCount(1);
  await expect(chat.userMessages()).toHaveCount(1);
  await expect(chat.assistantMessages()).toHaveCount(1);
  const shown = (await chat.assistantMessages().first().textContent()) ?? "";
  expect(shown.split(PREFACE).length - 1).toBe(1);
  await expect(chat.runStatus()).toHaveCount(0);
  await expect(chat.input).toBeEditable();
}

test("a parked run's stream drops: the chat reattaches by itself and shows the reviewer's answer, once", async ({
  signInAs,
  db,
  relay,
}) => {
  const user = await signInAs("user");
  const chat = await parkARefund(user, relay.origin);
  const threadId = chat.threadId();

  // The first reattach meets a server that is not back yet; the second is held until the
  // reviewer has approved and the run has finished, then goes through.
  let attempts = 0;
  const secondHeld = gate();
  const release = gate();
  await user.page.route(STREAM, async (route) => {
    attempts += 1;
    if (attempts === 1) return route.abort("connectionreset");
    if (attempts === 2) {
      secondHeld.open();
      await release.opened;
    }
    return route.continue();
  });
  relay.cutAll();

  await expect(chat.reconnecting).toBeVisible();
  await secondHeld.opened;
  // One failed reattach later the chat still says so quietly, without an error.
  await expect(chat.reconnecting).toBeVisible();
  await expect(chat.alert).toHaveCount(0);
  await expect(chat.send).toBeDisabled();

  await approveAndWaitForTheRunToEnd(await signInAs("reviewer"), db, threadId);
  release.open();

  await expectTheRefundOnce(chat);
  await expect(chat.reconnecting).toHaveCount(0);
  await expect(chat.alert).toHaveCount(0);
  expect(attempts).toBe(2);
});

test("when every reattach fails the chat says so with Retry, and Retry shows where the run is now", async ({
  signInAs,
  db,
  relay,
}) => {
  const user = await signInAs("user");
  const chat = await parkARefund(user, relay.origin);
  const threadId = chat.threadId();

  let attempts = 0;
  await user.page.route(STREAM, async (route) => {
    attempts += 1;
    await route.abort("connectionreset");
  });
  relay.cutAll();

  await expect(chat.reconnecting).toBeVisible();
  // Four failed reattaches, half a second to four seconds apart, before the chat gives the alert.
  await expect(chat.alert).toHaveText(/lost its connection/, { timeout: 30_000 });
  await expect(chat.retry).toBeVisible();
  await expect(chat.reconnecting).toHaveCount(0);
  expect(attempts).toBeGreaterThanOrEqual(4);

  await approveAndWaitForTheRunToEnd(await signInAs("reviewer"), db, threadId);
  await expect(chat.requestCard("approval", PROMPT)).toContainText("Waiting for a reviewer.");

  await user.page.unroute(STREAM);
  await chat.retry.click();

  await expectTheRefundOnce(chat);
  await expect(chat.alert).toHaveCount(0);
  await expect(chat.retry).toHaveCount(0);
});

test("offline, the chat says so at once, and catches up as soon as the browser is back online", async ({
  signInAs,
  db,
  relay,
}) => {
  const user = await signInAs("user");
  const chat = await parkARefund(user, relay.origin);
  const threadId = chat.threadId();

  await user.context.setOffline(true);
  relay.cutAll();

  await expect(chat.alert).toHaveText(/You are offline/);
  await expect(chat.retry).toBeVisible();
  await expect(chat.reconnecting).toHaveCount(0);

  await approveAndWaitForTheRunToEnd(await signInAs("reviewer"), db, threadId);
  await expect(chat.requestCard("approval", PROMPT)).toContainText("Waiting for a reviewer.");
  await user.context.setOffline(false);

  await expectTheRefundOnce(chat);
  await expect(chat.alert).toHaveCount(0);
});

test("a reply cut off while it streams is finished after the reattach, its text shown once", async ({
  signInAs,
  relay,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat(relay.origin);
  await chat.say("help");
  const reply = chat.assistantMessages();
  const firstWords = "I'm the offline demo model";
  const lastLine = "“what's my balance”";
  // The demo model paces its deltas, so the first words arrive well before the last ones.
  await expect(reply.first()).toContainText(firstWords);
  await expect(reply.first()).not.toContainText(lastLine);

  relay.cutAll();

  await expect(reply.first()).toContainText(lastLine);
  const shown = (await reply.first().textContent()) ?? "";
  expect(shown.split(firstWords).length - 1).toBe(1);
  expect(shown.split(lastLine).length - 1).toBe(1);
  await expect(reply).toHaveCount(1);
  await expect(chat.userMessages()).toHaveCount(1);
  await expect(chat.reconnecting).toHaveCount(0);
  await expect(chat.alert).toHaveCount(0);
  await expect(chat.input).toBeEditable();
});

test("a reattach refused because the session has ended is not retried: the chat asks to sign in", async ({
  signInAs,
  relay,
}) => {
  const user = await signInAs("user");
  const chat = await parkARefund(user, relay.origin);

  await user.context.clearCookies();
  relay.cutAll();

  await expect(chat.alert).toHaveText(
    "You are signed out, so this page no longer updates. Sign in to continue.",
  );
  await expect(chat.alert.getByRole("link", { name: "Sign in" })).toHaveAttribute(
    "href",
    `/login?callbackUrl=${encodeURIComponent(`/chat/${chat.threadId()}`)}`,
  );
  await expect(chat.reconnecting).toHaveCount(0);
  await expect(chat.retry).toHaveCount(0);
  await expect(chat.requestCard("approval", PROMPT)).toContainText("Waiting for a reviewer.");
});
