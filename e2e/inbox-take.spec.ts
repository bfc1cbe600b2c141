import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { markThisDocument } from "./mark-this-document";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

// A version of this run only, so the search below never meets another test's deploy.
const version = `v8.${Date.now() % 100_000}`;
const PROMPT = `Approve deploying web ${version} to production?`;

test("a reviewer's \"I'm on it\" shows live to a colleague, lapses by itself, and never blocks the colleague's answer", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say(`deploy ${version} to production`);
  await expect(chat.requestCard("approval", PROMPT)).toBeVisible();

  const rita = await signInAs("reviewer");
  const sam = await signInAs("reviewer");
  const ritaInbox = new InboxPage(rita.page);
  const samInbox = new InboxPage(sam.page);
  await samInbox.goto(`?q=${encodeURIComponent(version)}`);
  await samInbox.selectRow(PROMPT);
  await expect(samInbox.live).toHaveText("Live");
  const notReloaded = await markThisDocument(sam.page);
  const samTake = samInbox.detail.getByRole("region", { name: "Who is on it" });
  await expect(samTake.getByRole("button", { name: "I'm on it" })).toBeVisible();

  await ritaInbox.goto(`?q=${encodeURIComponent(version)}`);
  await ritaInbox.selectRow(PROMPT);
  const ritaTake = ritaInbox.detail.getByRole("region", { name: "Who is on it" });
  await ritaTake.getByRole("button", { name: "I'm on it" }).click();
  await expect(ritaTake).toContainText("You are on it");
  await expect(ritaInbox.row(PROMPT)).toContainText("You are on it");

  // Sam's open inbox learns of it without a reload, in the list and in the pane.
  await expect(samInbox.row(PROMPT)).toContainText(`${rita.user.name} is on it`);
  await expect(samTake).toContainText(`${rita.user.name} is on it`);
  await expect(samTake.getByRole("button", { name: "I'm on it" })).toHaveCount(0);
  await expect(notReloaded).toHaveCount(1);
  await expectAccessible(sam.page);
  await expectAccessible(rita.page);

  // The take lapses by itself (after 15 s in these tests), and Sam may take it.
  await expect(samInbox.row(PROMPT).getByTestId("taken-note")).toHaveCount(0, { timeout: 30_000 });
  await expect(samTake.getByRole("button", { name: "I'm on it" })).toBeVisible();

  // Rita takes it again; Sam answers anyway, since a take never blocks an answer.
  await rita.page.reload();
  await ritaTake.getByRole("button", { name: "I'm on it" }).click();
  await expect(ritaTake).toContainText("You are on it");
  await expect(samTake).toContainText(`${rita.user.name} is on it`);
  await samInbox.detailForm.approve.click();
  await samInbox.detailForm.expectReadOnly("Approved");
  await expect(samInbox.detail).toContainText(`By ${sam.user.name}`);
  await expect(notReloaded).toHaveCount(1);
});
