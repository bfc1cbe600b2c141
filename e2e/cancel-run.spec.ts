import { gate } from "@/lib/db/testing/gate";
import { approveAndWaitForTheRunToEnd } from "./approve-and-wait-for-the-run-to-end";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

const PROMPT = /Approve a refund of \$250\.00 for order 4321/;

test("the user stops a run waiting for a reviewer: the chat shows it cancelled and the reviewer can no longer answer", async ({
  signInAs,
  db,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await expect(chat.stop).toHaveCount(0);
  await chat.say("refund order 4321 for $250");

  const card = chat.requestCard("approval", PROMPT);
  await expect(card).toContainText("Waiting for a reviewer.");
  await expect(chat.messages).toContainText("Paused until the request above is answered.");
  await expect(chat.send).toBeDisabled();
  await expect(chat.stop).toBeEnabled();

  await chat.stop.click();

  // The open stream carries the cancel: no reload.
  await expect(card).toContainText("Cancelled");
  await expect(card).toContainText("By you");
  await expect(card).not.toContainText("must act");
  await expect(chat.toolCard("refund")).toContainText("cancelled");
  await expect(chat.messages).toContainText("The run was cancelled.");
  await expect(chat.runStatus()).toHaveCount(0);
  await expect(chat.stop).toHaveCount(0);
  await expect(chat.alert).toHaveCount(0);
  await expect(chat.input).toHaveAttribute("placeholder", "Ask the agent for something");
  await chat.input.fill("help");
  await expect(chat.send).toBeEnabled();

  const threadId = chat.threadId();
  const run = await db.run.findFirstOrThrow({ where: { threadId } });
  expect(run.status).toBe("cancelled");
  const row = await db.request.findFirstOrThrow({ where: { runId: run.id } });
  expect(row.status).toBe("cancelled");

  const reviewer = await signInAs("reviewer");
  const request = new RequestPage(reviewer.page);
  await request.goto(row.id);
  await request.expectPrompt("Approve a refund of $250.00 for order 4321?");
  await request.form.expectReadOnly("Cancelled");
  await expect(reviewer.page.getByRole("main")).not.toContainText("must act");
  await expect(request.form.decline).toHaveCount(0);
  await expect(reviewer.page.getByRole("main").getByRole("textbox")).toHaveCount(0);

  // Sending again after the stop starts a new run in the same thread.
  await chat.send.click();
  await expect(chat.assistantMessages().last()).toContainText("I'm the offline demo model");
  await expect(chat.assistantMessages()).toHaveCount(2);
});

test("a stop that arrives after the run has ended is refused with a message, and the chat shows the end", async ({
  signInAs,
  db,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("refund order 4321 for $250");
  const card = chat.requestCard("approval", PROMPT);
  await expect(card).toContainText("Waiting for a reviewer.");
  const threadId = chat.threadId();

  // Holding the user's stop until a reviewer has approved and the run has finished.
  const release = gate();
  await user.page.route(
    (url) => url.pathname === `/chat/${threadId}`,
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await release.opened;
      await route.continue();
    },
  );
  await chat.stop.click();
  await expect(chat.stop).toBeDisabled();

  await approveAndWaitForTheRunToEnd(await signInAs("reviewer"), db, threadId);
  release.open();

  await expect(chat.alert).toHaveText("This run has already ended.");
  await expect(chat.toolCard("refund")).toContainText(/Refunded \$250\.00/);
  await expect(card).toContainText("Approved");
  await expect(chat.stop).toHaveCount(0);
  expect((await db.run.findFirstOrThrow({ where: { threadId } })).status).toBe("done");
});
