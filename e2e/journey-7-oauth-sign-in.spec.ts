import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { DemoBankPage } from "./pages/demo-bank-page";

// The harness runs the demo provider on the app's port + 1.
const providerLink = /^Continue to localhost:\d+$/;

/** Asks for the balance and follows the card's link to the provider; returns the card. */
async function askForBalanceAndContinue(chat: ChatPage) {
  await chat.startNewChat();
  await chat.say("what's my balance?");
  const card = chat.requestCard("authorization", "Sign in to Demo Bank");
  await expect(card).toBeVisible();
  // The request is said once, by its card.
  await expect(chat.messages.getByText("Sign in to Demo Bank so I can read your balance.")).toHaveCount(1);
  const link = card.getByRole("link", { name: providerLink });
  await expect(link).toBeVisible();
  const host = (await link.textContent())!.replace("Continue to ", "");
  await link.click();
  await expect(chat.page).toHaveURL((url) => url.host === host && url.pathname.startsWith("/interaction/"));
  return card;
}

/** Remembers the app callback URL the provider sent the browser to. */
function recordCallback(page: Page): () => string {
  let callback = "";
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.url().includes("/oauth/demo/callback"))
      callback = request.url();
  });
  return () => callback;
}

test.describe("OAuth sign-in requests", () => {
  test("consent at the provider resumes the run, which shows the balance", async ({ signInAs, db }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    const callbackUrl = recordCallback(user.page);
    await askForBalanceAndContinue(chat);

    const bank = new DemoBankPage(user.page);
    await bank.signInAsDemo();
    await bank.allow.click();

    await expect(user.page).toHaveURL(/\/chat\/[^/]+$/);
    await expect(chat.assistantMessages().last()).toContainText(
      "Your Demo Bank balance (Dana Demo) is 1,234.56 EUR.",
    );
    await expect(chat.requestCard("authorization")).toContainText("Answered");

    // The token is on the server only: not in the transcript, the events or the answer.
    const connection = await db.oAuthConnection.findFirstOrThrow({ where: { userId: user.user.id } });
    expect(connection.scopes).toContain("balance:read");
    const answer = await db.answer.findFirstOrThrow({ where: { request: { threadId: chat.threadId() } } });
    expect(answer.data).toEqual({ provider: "demo", scopes: expect.arrayContaining(["balance:read"]) });

    // A replayed callback URL is refused and changes nothing.
    const replayed = callbackUrl();
    expect(replayed).toContain("state=");
    const answersBefore = await db.answer.count();
    const response = await user.page.goto(replayed);
    expect(response?.status()).toBe(409);
    await expect(user.page.getByTestId("oauth-error")).toHaveText("This sign-in link has already been used");
    expect(await db.answer.count()).toBe(answersBefore);

    // The connection is listed in the settings and can be disconnected.
    await user.page.goto("/settings/connections");
    const item = user.page.getByTestId("connection-demo");
    await expect(item).toContainText("balance:read");
    await item.getByRole("button", { name: "Disconnect Demo Bank" }).click();
    await expect(item).toContainText("Not connected");
    expect(await db.oAuthConnection.count({ where: { userId: user.user.id } })).toBe(0);
  });

  test("denying consent tells the model the sign-in was declined", async ({ signInAs }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    await askForBalanceAndContinue(chat);
    const bank = new DemoBankPage(user.page);
    await bank.signInAsDemo();
    await bank.deny.click();

    await expect(user.page).toHaveURL(/\/chat\/[^/]+$/);
    await expect(chat.assistantMessages().last()).toContainText(
      "The balance check did not go ahead. It was declined.",
    );
    await expect(chat.requestCard("authorization")).toContainText("Declined");
  });

  test("a provider's own error text never reaches the page", async ({ signInAs, db }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    // The state the app sent to the provider, as a provider answering with an error returns it.
    let state = "";
    user.page.on("request", (request) => {
      const sent = new URL(request.url()).searchParams.get("state");
      if (request.isNavigationRequest() && sent && !request.url().includes("/oauth/demo/")) state = sent;
    });
    await askForBalanceAndContinue(chat);
    expect(state).not.toBe("");

    const hostile = "Your account is locked. Call +1-555-0100 now to restore access";
    // Both the code and the description are the provider's to choose; neither is shown.
    const query = new URLSearchParams({ state, error: "call_+1-555-0100", error_description: hostile });
    const response = await user.page.goto(`/oauth/demo/callback?${query}`);
    expect(response?.status()).toBe(502);
    await expect(user.page.getByTestId("oauth-error")).toHaveText(
      "Demo Bank could not complete the sign-in. Try again from your chat.",
    );
    expect(await user.page.content()).not.toContain("555-0100");
    // The request stays open for another try, and nothing of the text is in its thread's events.
    const row = await db.request.findFirstOrThrow({
      where: { ownerId: user.user.id, kind: "authorization" },
    });
    expect(row.status).toBe("open");
    const events = await db.event.findMany({ where: { threadId: row.threadId } });
    expect(JSON.stringify(events)).not.toContain("555-0100");
  });

  test("another user cannot start the sign-in of someone else's request", async ({ signInAs, db }) => {
    const owner = await signInAs("user");
    const chat = new ChatPage(owner.page);
    await chat.startNewChat();
    await chat.say("what's my balance?");
    await expect(chat.requestCard("authorization")).toBeVisible();
    const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId() } });

    // The owner's request page offers the same way to the provider as the chat card.
    await owner.page.goto(`/requests/${row.id}`);
    await expect(owner.page.getByRole("link", { name: providerLink })).toHaveAttribute(
      "href",
      new RegExp(`/oauth/demo/start\\?request=${row.requestId}$`),
    );

    const stranger = await signInAs("user");
    const response = await stranger.page.goto(
      `/oauth/demo/start?request=${encodeURIComponent(row.requestId)}`,
    );
    // To them the owner's request is one that does not exist.
    expect(response?.status()).toBe(404);
    await expect(stranger.page.getByTestId("oauth-error")).toHaveText("This request does not exist.");
    expect(await db.oAuthState.count({ where: { requestRowId: row.id } })).toBe(0);
  });

  test("sign-in links check the session and their input", async ({ browser, signInAs }) => {
    const anonymous = await browser.newContext();
    const page = await anonymous.newPage();
    await page.goto("/oauth/demo/start?request=auth-x");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Foauth%2Fdemo%2Fstart%3Frequest%3Dauth-x$/);
    await anonymous.close();

    const user = await signInAs("user");
    const visit = async (path: string) => (await user.page.goto(path))?.status();
    expect(await visit("/oauth/demo/start")).toBe(400);
    expect(await visit("/oauth/demo/start?request=auth-nobody-has")).toBe(404);
    expect(await visit("/oauth/Not_A_Provider!/start?request=auth-x")).toBe(404);
    expect(await visit("/oauth/nowhere/start?request=auth-x")).toBe(404);
    expect(await visit("/oauth/demo/callback")).toBe(400);
    expect(await visit("/oauth/demo/callback?state=forged.value&code=abc")).toBe(400);
    await expect(user.page.getByTestId("oauth-error")).toHaveText(
      "The sign-in link was altered or was not issued by this app",
    );
  });
});
