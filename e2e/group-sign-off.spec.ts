import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

// Two of finance sign off (ADR 0076): the asker's card follows the votes, the second approval
// settles the request, and the call runs with both approvers' notes.

const PROMPT = "Approve deploying web v1.4 to production?";

test("a request for 2 of finance: Rita approves and the asker's card shows 1 of 2, Sam approves and the call runs", {
  tag: "@phone",
}, async ({ signInAs, db }) => {
  test.setTimeout(90_000);
  const alice = await signInAs("user", "Alice Asker");
  const rita = await signInAs("user", "Rita Finance");
  const sam = await signInAs("user", "Sam Finance");
  const slug = `finance-${randomBytes(3).toString("hex")}`;
  await db.approverGroup.create({
    data: {
      slug,
      name: "Finance",
      members: { create: [alice, rita, sam].map((person) => ({ userId: person.user.id })) },
    },
  });

  const chat = new ChatPage(alice.page);
  await chat.startNewChat();
  await chat.say("deploy v1.4 to production");
  const card = chat.requestCard("approval", PROMPT);
  await expect(card).toBeVisible();
  // Addressed to the group as a rule "2 of finance" would address it.
  const asked = await db.request.findFirstOrThrow({
    where: { ownerId: alice.user.id, status: "open", kind: "approval" },
    orderBy: { createdAt: "desc" },
  });
  await db.request.update({
    where: { id: asked.id },
    data: { audience: "group", audienceGroup: slug, required: 2 },
  });

  // Four eyes: the asker, a member, has no form to approve with.
  const asker = await alice.context.newPage();
  await asker.goto(`/requests/${asked.id}`);
  await expect(asker.getByTestId("vote-tally")).toContainText("0 of 2 approvals");
  await expect(new RequestPage(asker).form.approve).toHaveCount(0);
  await asker.close();

  const forRita = new RequestPage(rita.page);
  await forRita.goto(asked.id);
  await forRita.expectPrompt(PROMPT);
  await expect(rita.page.getByTestId("vote-tally")).toContainText(
    "May still vote: Rita Finance, Sam Finance",
  );
  await forRita.form.field("Note (optional)").fill("Rita checked the budget");
  await forRita.form.approve.click();
  await expect(rita.page.getByTestId("vote-tally")).toContainText("1 of 2 approvals — Rita Finance");
  await expect(forRita.form.approve).toHaveCount(0);

  // The asker's open chat follows the votes without a reload.
  await expect(card.getByTestId("vote-tally")).toContainText("1 of 2 approvals — Rita Finance");

  const forSam = new RequestPage(sam.page);
  await forSam.goto(asked.id);
  await forSam.form.field("Note (optional)").fill("Sam agrees");
  await forSam.form.approve.click();
  await forSam.form.expectReadOnly("Answered");
  await expect(sam.page.getByTestId("vote-tally")).toContainText("Approved by Rita Finance, Sam Finance");

  await expect(card).toContainText("Answered");
  const result = chat.toolCard("deploy");
  await expect(result).toContainText(/Deployed web v1\.4 to production/);
  await expect(result).toContainText("Rita checked the budget");
  await expect(result).toContainText("Sam agrees");
});
