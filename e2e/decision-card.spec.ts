import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

// The decision card (ADR 0087): one sentence of what will happen, who must act and what an expiry
// does, Approve on the first screen (a phone's too), values as text until edited, and, once
// decided, a heading that says what happened and the answer echoed in words.

test("a deploy's decision card leads with its sentence, who must act and Approve on the first screen", {
  tag: "@phone",
}, async ({ signInAs, db }) => {
  const version = `v7.${Date.now() % 100_000}`;
  const prompt = `Approve deploying web ${version} to production?`;
  const alice = await signInAs("user");
  const chat = new ChatPage(alice.page);
  await chat.startNewChat();
  await chat.say(`deploy ${version} to production`);
  const card = chat.requestCard("approval", prompt);
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(`Deploy web ${version} to production`);
  await expect(card).toContainText("A reviewer must act: any reviewer may decide.");
  await expect(card).toContainText("If nobody decides by then, it expires and nothing runs.");

  const asked = await db.request.findFirstOrThrow({ where: { prompt }, select: { id: true } });
  const reviewer = await signInAs("reviewer");
  const request = new RequestPage(reviewer.page);
  await request.goto(asked.id);
  await expect(request.heading()).toHaveText(`Deploy web ${version} to production`);
  await expect(request.heading().locator("strong")).toHaveText(["web", version, "production"]);
  const main = reviewer.page.getByRole("main");
  await expect(main).toContainText("A reviewer must act: any reviewer may decide.");
  await expect(main).toContainText(`Asked by ${alice.user.name}'s chat`);

  // Nothing scrolled, and Approve is whole on the first screen.
  expect(await reviewer.page.evaluate(() => window.scrollY)).toBe(0);
  await expect(request.form.approve).toBeInViewport({ ratio: 1 });
  await expect(request.form.decline).toBeInViewport({ ratio: 1 });
  // The context is folded below the decision.
  await expect(main.getByText("The chat so far")).toBeVisible();
  await expect(main.getByRole("region", { name: "The chat that led to this request" })).toBeHidden();
  await expectAccessible(reviewer.page);

  // The values read as text until the reviewer asks to edit them.
  const edit = main.getByRole("button", { name: "Edit", exact: true });
  await expect(edit).toHaveAttribute("aria-pressed", "false");
  await edit.click();
  await expect(main.getByRole("button", { name: "Done editing" })).toHaveAttribute("aria-pressed", "true");
  await request.form.field("Version").fill(`${version}.1`);
  await request.form.declineReason.fill("Ship the patch");
  await request.form.approve.click();

  await expect(request.heading()).toHaveText(
    new RegExp(
      `^Approved: Deploy web ${version.replace(".", "\\.")}\\.1 to production — by ${reviewer.user.name}, `,
    ),
  );
  const answered = main.getByRole("definition");
  await expect(main.getByRole("term")).toContainText(["Service", "Version", "Environment", "Note"]);
  await expect(answered).toContainText(["web", `${version}.1`, "production", "Ship the patch"]);
  await expect(main.getByRole("region", { name: "Answer" })).not.toContainText("{");
  await expect(main).not.toContainText("must act");
  await expectAccessible(reviewer.page);

  // The asker's card follows without a reload and says what happened, with what was approved.
  await expect(card.getByRole("heading", { level: 3 })).toHaveText(
    new RegExp(`^Approved: Deploy web ${version.replace(".", "\\.")}\\.1 to production — by a reviewer, `),
  );
  const inChat = card.getByRole("region", { name: "Answer" });
  await expect(inChat.getByRole("definition")).toContainText([`${version}.1`, "Ship the patch"]);
  await expect(inChat).not.toContainText("{");
});
