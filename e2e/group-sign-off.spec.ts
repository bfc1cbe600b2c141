import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

// Two of finance sign off (ADR 0076), addressed by the demo seed's refund rule (ADR 0074): above
// $1,000 needs 2 of `finance`. The asker's card follows the votes, the second approval settles the
// request, and the refund runs with both approvers' notes. Only this journey asks for more than
// $1,000, so every other refund journey is still judged by the "above $100" rule.

test("a $2,500 refund waits for 2 of finance: Rita approves and the asker's card shows 1 of 2, Sam approves and the refund runs", {
  tag: "@phone",
}, async ({ signInAs, db }) => {
  test.setTimeout(180_000);
  const alice = await signInAs("user", "Alice Asker");
  const rita = await signInAs("user", "Rita Finance");
  const sam = await signInAs("user", "Sam Finance");
  const finance = await db.approverGroup.findUniqueOrThrow({ where: { slug: "finance" } });
  const members = [rita.user.id, sam.user.id];
  await db.approverGroupMember.createMany({
    data: members.map((userId) => ({ groupId: finance.id, userId })),
  });
  try {
    const order = `G${Date.now().toString(36)}${randomBytes(2).toString("hex")}`.toUpperCase();
    const prompt = `Approve a refund of $2500.00 for order ${order}?`;

    const chat = new ChatPage(alice.page);
    await chat.startNewChat();
    await chat.say(`refund order ${order} for $2500`);
    const card = chat.requestCard("approval", prompt);
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card).toContainText("2 of finance must approve");
    // The rule, not the test, addressed it.
    const asked = await db.request.findFirstOrThrow({
      where: { ownerId: alice.user.id, toolName: "refund", kind: "approval" },
      orderBy: { createdAt: "desc" },
    });
    expect(asked).toMatchObject({ status: "open", audience: "group", audienceGroup: "finance", required: 2 });
    await expect(card.getByTestId("vote-tally")).toContainText("0 of 2 approvals from finance", {
      timeout: 20_000,
    });

    // Four eyes: the asker has no form to approve with.
    const asker = await alice.context.newPage();
    await asker.goto(`/requests/${asked.id}`);
    await expect(asker.getByTestId("vote-tally")).toContainText("0 of 2 approvals");
    await expect(new RequestPage(asker).form.approve).toHaveCount(0);
    await asker.close();

    // Sam's inbox, open before Rita votes, follows her vote without a reload.
    const samInbox = await sam.context.newPage();
    await samInbox.goto("/inbox");
    const samRow = samInbox.getByRole("listitem").filter({ hasText: order });
    await expect(samRow.getByTestId("vote-tally")).toContainText("0 of 2", { timeout: 20_000 });

    const forRita = new RequestPage(rita.page);
    await forRita.goto(asked.id);
    await forRita.expectPrompt(prompt);
    // The card names who must act: the group's address and the members who may still approve.
    await expect(rita.page.getByRole("main")).toContainText(
      /2 of finance must approve — .*Rita Finance, Sam Finance may approve\./,
    );
    const ritaTally = rita.page.getByTestId("vote-tally");
    await expect(ritaTally).toContainText("May still vote:");
    await expect(ritaTally).toContainText("Rita Finance");
    await expect(ritaTally).toContainText("Sam Finance");
    await forRita.form.field("Note (optional)").fill("Rita checked the budget");
    await forRita.form.approve.click();
    await expect(ritaTally).toContainText("1 of 2 approvals — Rita Finance", { timeout: 20_000 });
    await expect(forRita.form.approve).toHaveCount(0);

    // The asker's open chat follows the votes without a reload.
    await expect(card.getByTestId("vote-tally")).toContainText("1 of 2 approvals — Rita Finance", {
      timeout: 20_000,
    });

    await expect(samRow.getByTestId("vote-tally")).toContainText("1 of 2", { timeout: 20_000 });
    await samInbox.close();

    const forSam = new RequestPage(sam.page);
    await forSam.goto(asked.id);
    await forSam.form.field("Note (optional)").fill("Sam agrees");
    await forSam.form.approve.click();
    await forSam.form.expectReadOnly("Approved");
    await expect(sam.page.getByTestId("vote-tally")).toContainText("Approved by Rita Finance, Sam Finance");

    await expect(card).toContainText("Approved", { timeout: 30_000 });
    const result = chat.toolCard("refund");
    await expect(result).toContainText(`Refunded $2500.00 for order ${order}`, { timeout: 30_000 });
    await expect(result).toContainText(`${rita.user.email}: Rita checked the budget`);
    await expect(result).toContainText(`${sam.user.email}: Sam agrees`);

    // One answer, made of two counted votes, and the run went on to its end.
    expect(await db.answer.count({ where: { requestRowId: asked.id } })).toBe(1);
    const votes = await db.requestVote.findMany({ where: { requestRowId: asked.id } });
    expect(votes.map((vote) => [vote.voterId, vote.ok, vote.status]).sort()).toEqual(
      members.map((id) => [id, true, "counted"]).sort(),
    );
    await expect
      .poll(async () => (await db.run.findUniqueOrThrow({ where: { id: asked.runId! } })).status, {
        timeout: 30_000,
      })
      .toBe("done");
  } finally {
    // Later journeys that meet the finance group see it as the seed left it.
    await db.approverGroupMember.deleteMany({ where: { groupId: finance.id, userId: { in: members } } });
  }
});
