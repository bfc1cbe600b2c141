import { gate } from "@/lib/db/testing/gate";
import { approveAndWaitForTheRunToEnd } from "./approve-and-wait-for-the-run-to-end";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

test.describe("reloading the chat", () => {
  test("while a run is parked shows the same state, then follows the run live", async ({ signInAs, db }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    await chat.startNewChat();
    await chat.say("refund order 4321 for $250");
    const prompt = /Approve a refund of \$250\.00/;
    await expect(chat.requestCard("approval", prompt)).toBeVisible();

    await user.page.reload();
    await expect(chat.userMessages()).toHaveCount(1);
    await expect(chat.requestCard("approval", prompt)).toHaveCount(1);
    await expect(chat.requestCard("approval", prompt)).toContainText("Waiting for a reviewer.");
    await expect(chat.toolCard("refund")).toContainText("waiting for an answer");
    await expect(chat.messages).toContainText("Paused until the request above is answered.");
    await expect(chat.send).toBeDisabled();

    const row = await db.request.findFirstOrThrow({ where: { threadId: chat.threadId() } });
    const reviewer = await signInAs("reviewer");
    const request = new RequestPage(reviewer.page);
    await request.goto(row.id);
    await request.form.approve.click();
    await request.form.expectReadOnly("Approved");

    await expect(chat.toolCard("refund")).toContainText(/Refunded \$250\.00/);
    await expect(chat.requestCard("approval", prompt)).toContainText("Approved");
    await expect(chat.assistantMessages()).toHaveCount(1);
  });

  test("while the reply streams shows what has arrived, then the rest live, once", async ({ signInAs }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    await chat.startNewChat();
    await chat.say("help");
    const reply = chat.assistantMessages();
    const lastLine = "“what's my balance”";
    // The demo model paces its deltas, so the first words arrive well before the last ones.
    await expect(reply.first()).toContainText("I'm the offline demo model");
    await expect(reply.first()).not.toContainText(lastLine);

    await user.page.reload();
    await expect(reply).toHaveCount(1);
    await expect(reply.first()).toContainText(lastLine);
    const shown = (await reply.first().textContent()) ?? "";
    expect(shown.split("I'm the offline demo model").length - 1).toBe(1);
    expect(shown.split(lastLine).length - 1).toBe(1);
    await expect(chat.userMessages()).toHaveCount(1);
    await expect(chat.input).toBeEditable();
  });

  test("when the run ends between the page's render and its stream, the page still shows the end", async ({
    signInAs,
    db,
  }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    await chat.startNewChat();
    await chat.say("refund order 4321 for $250");
    const prompt = /Approve a refund of \$250\.00/;
    await expect(chat.requestCard("approval", prompt)).toBeVisible();
    const threadId = chat.threadId();

    // The reloaded page is rendered while the run is parked; its stream request is held until
    // a reviewer has approved and the run has finished, so it attaches to a run that has ended.
    let held = 0;
    const release = gate();
    await user.page.route(/\/api\/threads\/[^/]+\/stream/, async (route) => {
      held += 1;
      await release.opened;
      await route.continue();
    });
    await user.page.reload();
    await expect(chat.requestCard("approval", prompt)).toContainText("Waiting for a reviewer.");

    await approveAndWaitForTheRunToEnd(await signInAs("reviewer"), db, threadId);
    expect(held).toBe(1);
    release.open();

    await expect(chat.toolCard("refund")).toContainText(/Refunded \$250\.00/);
    await expect(chat.requestCard("approval", prompt)).toContainText("Approved");
    await expect(chat.runStatus()).toHaveCount(0);
    await expect(chat.assistantMessages()).toHaveCount(1);
    await expect(chat.input).toBeEditable();
  });

  test("right after sending shows the conversation once, complete", async ({ signInAs }) => {
    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    await chat.startNewChat();
    await chat.input.fill("deploy api v3.2 to staging");
    await chat.send.click();
    // Reload while the run is still being driven on the server; the stream is rebuilt from
    // the event log, so nothing is lost and nothing is shown twice.
    await user.page.reload();
    await expect(chat.toolCard("deploy")).toContainText(/Deployed api v3\.2 to staging/);
    await expect(chat.userMessages()).toHaveCount(1);
    await expect(chat.assistantMessages()).toHaveCount(1);
    await expect(chat.toolCard("deploy")).toHaveCount(1);
    await expect(chat.assistantMessages().first()).toContainText(
      "Requesting a deploy of api v3.2 to staging.",
    );
    await expect(chat.input).toBeEditable();
  });
});
