import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

test.describe("refusals", () => {
  test("another user's request and chat are forbidden", async ({ signInAs, db, request }) => {
    const owner = await signInAs("user");
    const chat = new ChatPage(owner.page);
    await chat.startNewChat();
    await chat.say("book a flight from BER to LIS");
    await expect(chat.requestCard("input")).toBeVisible();
    const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId() } });

    const stranger = await signInAs("user");
    const page = new RequestPage(stranger.page);
    const response = await stranger.page.goto(`/requests/${row.id}`);
    expect(response?.status()).toBe(403);
    await expect(stranger.page.getByRole("heading", { name: "403 — Forbidden" })).toBeVisible();
    await expect(page.form.submit).toHaveCount(0);

    const chatResponse = await stranger.page.goto(`/chat/${chat.threadId()}`);
    expect(chatResponse?.status()).toBe(403);
    const stream = await stranger.page.request.get(`/api/threads/${chat.threadId()}/stream`);
    expect(stream.status()).toBe(403);
    expect((await stream.json()).message).toBe("You are not allowed to open this chat.");

    const signedOut = await request.get(`/api/threads/${chat.threadId()}/stream`);
    expect(signedOut.status()).toBe(401);

    const missing = await stranger.page.goto("/requests/no-such-request");
    expect(missing?.status()).toBe(404);
    expect(await db.answer.count({ where: { requestRowId: row.id } })).toBe(0);
  });

  test("a stale tab cannot answer a request that was answered meanwhile", async ({ signInAs, db }) => {
    const owner = await signInAs("user");
    const chat = new ChatPage(owner.page);
    await chat.startNewChat();
    await chat.say("deploy v5.5 to production");
    await expect(chat.requestCard("approval")).toBeVisible();
    const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId() } });

    const first = await signInAs("reviewer");
    const second = await signInAs("reviewer");
    const firstPage = new RequestPage(first.page);
    const stalePage = new RequestPage(second.page);
    await firstPage.goto(row.id);
    await stalePage.goto(row.id);

    await stalePage.form.declineReason.fill("Not today");
    await firstPage.form.approve.click();
    await firstPage.form.expectReadOnly("Answered");

    await stalePage.form.decline.click();
    await expect(stalePage.form.alert).toHaveText(/already been answered|no longer open/);
    const answers = await db.answer.findMany({ where: { requestRowId: row.id } });
    expect(answers.map((a) => [a.actorId, a.ok])).toEqual([[first.user.id, true]]);

    await second.page.reload();
    await stalePage.form.expectReadOnly("Answered");
    await expect(second.page.getByText(`By ${first.user.name}`)).toBeVisible();
    await expect(chat.toolCard("deploy")).toContainText(/Deployed web v5\.5 to production/);
  });
});
