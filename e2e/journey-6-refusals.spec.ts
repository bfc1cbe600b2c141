import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

test.describe("refusals", () => {
  test("another user's request reads as unknown, and their chat is forbidden", async ({
    signInAs,
    db,
    request,
  }) => {
    const owner = await signInAs("user");
    const chat = new ChatPage(owner.page);
    await chat.startNewChat();
    await chat.say("book a flight from BER to LIS");
    await expect(chat.requestCard("input")).toBeVisible();
    const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId() } });

    const stranger = await signInAs("user");
    const page = new RequestPage(stranger.page);
    // Answered exactly as an unknown id is, so the stranger cannot tell that the request exists.
    const response = await stranger.page.goto(`/requests/${row.id}`);
    expect(response?.status()).toBe(404);
    const foreignText = await stranger.page.getByRole("main").textContent();
    await expect(page.form.submit).toHaveCount(0);
    const unknown = await stranger.page.goto("/requests/cmnosuchrequest000000000");
    expect(unknown?.status()).toBe(404);
    expect(await stranger.page.getByRole("main").textContent()).toBe(foreignText);
    // So does the inbox's split view.
    await stranger.page.goto(`/inbox?selected=${row.id}`);
    const foreignPane = await stranger.page.getByRole("region", { name: "Selected request" }).textContent();
    await stranger.page.goto("/inbox?selected=cmnosuchrequest000000000");
    expect(await stranger.page.getByRole("region", { name: "Selected request" }).textContent()).toBe(
      foreignPane,
    );
    expect(foreignPane).toContain("This request does not exist.");

    // Someone else's chat is answered exactly like one that does not exist.
    const chatResponse = await stranger.page.goto(`/chat/${chat.threadId()}`);
    expect(chatResponse?.status()).toBe(404);
    const foreignChat = await stranger.page.getByRole("main").textContent();
    const unknownChat = await stranger.page.goto("/chat/cmnosuchthread0000000000");
    expect(unknownChat?.status()).toBe(404);
    expect(await stranger.page.getByRole("main").textContent()).toBe(foreignChat);
    const stream = await stranger.page.request.get(`/api/threads/${chat.threadId()}/stream`);
    expect(stream.status()).toBe(404);
    expect((await stream.json()).message).toBe("This chat does not exist.");

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

    // The note (a decline's reason) is optional, and the label says so.
    await expect(stalePage.form.declineReason).toBeVisible();
    await stalePage.form.declineReason.fill("Not today");
    await firstPage.form.approve.click();
    await firstPage.form.expectReadOnly("Approved");

    await stalePage.form.decline.click();
    await expect(stalePage.form.alert).toHaveText("This request has already been answered.");
    const answers = await db.answer.findMany({ where: { requestRowId: row.id } });
    expect(answers.map((a) => [a.actorId, a.ok])).toEqual([[first.user.id, true]]);

    // Without a reload, the stale tab turns into the answered view and says who answered.
    await stalePage.form.expectReadOnly("Approved");
    await expect(
      second.page.getByRole("region", { name: "Answer" }).getByText(`By ${first.user.name}`),
    ).toBeVisible();
    await expect(stalePage.form.declineReason).toHaveCount(0);
    await expect(chat.toolCard("deploy")).toContainText(/Deployed web v5\.5 to production/);
  });
});
