import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { markThisDocument } from "./mark-this-document";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestPage } from "./pages/request-page";
import { unreachable } from "./unreachable";

// An escalation ladder (ADR 0093): an approval asked through the API goes unanswered, so its
// reviewers get a reminder by mail (Rita finds hers in the mail catcher), and then it escalates
// to a group whose member, no reviewer, gets the request by mail and approves it. Rita's inbox,
// open all along, shows each step in the request's row as it fires, without a reload.

test("an unanswered approval reminds Rita by mail, escalates to another group, and that group's member approves it", async ({
  signInAs,
  db,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const owner = await signInAs("user", "Olga Owner");
  const rita = await signInAs("reviewer", "Rita Reviewer");
  const lead = await signInAs("user", "Lee Lead");
  const slug = `leads-${randomBytes(3).toString("hex")}`;
  await db.approverGroup.create({
    data: { slug, name: "Leads", members: { create: [{ userId: lead.user.id }] } },
  });
  // The owner's API token, stored as the app stores one: only its SHA-256.
  const token = `tnx_${randomBytes(32).toString("base64url")}`;
  await db.apiToken.create({
    data: {
      userId: owner.user.id,
      name: "ladder",
      tokenHash: createHash("sha256").update(token).digest("hex"),
      prefix: token.slice(0, 10),
      scopes: "requests:write requests:read",
    },
  });
  const release = randomBytes(3).toString("hex");
  const prompt = `Ship release ${release} to production?`;
  const made = await owner.page.request.post(`${baseURL}/api/v1/requests`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      kind: "approval",
      prompt,
      expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
      escalation: [
        { after: "3s", action: "remind" },
        { after: "10s", action: { add: slug } },
      ],
    },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };

  const inbox = new InboxPage(await rita.page.context().newPage());
  await inbox.goto(`?q=${release}`);
  await expect(inbox.live).toHaveText("Live");
  const steps = inbox.row(prompt).getByRole("list", { name: "Escalation" });
  await expect(inbox.row(prompt)).toHaveCount(1);
  await expect(inbox.row(prompt)).not.toContainText(`escalated to ${slug}`);
  const notReloaded = await markThisDocument(inbox.page);

  // Rita's reminder, after the mail about the new approval.
  const reminder = rita.page.getByRole("listitem", {
    name: `Mail to ${rita.user.email}: Reminder: Approval needed: “${prompt}”`,
  });
  await expect(async () => {
    await rita.page.goto("/demo/mail");
    await expect(reminder).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });

  // The lead, in no reviewer role, is mailed once the request escalates to their group.
  const escalated = lead.page.getByRole("listitem", {
    name: `Mail to ${lead.user.email}: Escalated to you: Approval needed: “${prompt}”`,
  });
  await expect(async () => {
    await lead.page.goto("/demo/mail");
    await expect(escalated).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(steps).toContainText("reminded");
  await expect(steps).toContainText(`escalated to ${slug}`);
  await expect(notReloaded).toHaveCount(1);

  await escalated.getByRole("link", { name: /\/requests\// }).click();
  const page = new RequestPage(lead.page);
  await page.expectPrompt(prompt);
  await expect(lead.page.getByRole("list", { name: "Escalation" })).toContainText(`escalated to ${slug}`);
  await expect(lead.page.getByRole("list", { name: "Escalation" })).toContainText("reminded");
  await page.form.approve.click();

  // The held decision commits after its Undo window; the API reads the answer back.
  await expect(async () => {
    const read = await owner.page.request.get(`${baseURL}/api/v1/requests/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await read.json()) as {
      status: string;
      escalation: { firedAt: string | null }[];
    };
    expect(body.status).toBe("answered");
    expect(body.escalation.every((step) => step.firedAt !== null)).toBe(true);
  }).toPass({ timeout: 30_000 });
  const answer = await db.answer.findUniqueOrThrow({ where: { requestRowId: id } });
  expect(answer).toMatchObject({ actorId: lead.user.id, ok: true });
});

// The asker's chat is open on the approval when a step fires: the step writes no event, but the
// chat's stream hears its notice, and the card shows it at once rather than at its 10-second poll,
// on a phone too.
test("the asker's open chat card shows a fired step at once", { tag: "@phone" }, async ({ signInAs, db }) => {
  const owner = await signInAs("user", "Cora Chat");
  const chat = new ChatPage(owner.page);
  await chat.startNewChat();
  const version = `v${Math.floor(Math.random() * 90) + 10}.${Math.floor(Math.random() * 10)}`;
  await chat.say(`deploy ${version} to production`);
  const card = chat.requestCard("approval");
  await expect(card).toBeVisible();
  const steps = card.getByRole("list", { name: "Escalation" });
  const request = await db.request.findFirstOrThrow({
    where: { threadId: chat.threadId(), kind: "approval", status: "open" },
  });
  // The card reads the steps when it mounts (none yet), then polls 10 seconds later: a step
  // fired once that first read is done must show well before that poll.
  await expect(card).toHaveAttribute("data-steps-read", "");
  await expect(steps).toHaveCount(0);
  await db.requestEscalationStep.create({
    data: {
      requestRowId: request.id,
      position: 0,
      after: "1m",
      kind: "remind",
      action: "remind",
      dueAt: new Date(Date.now() - 1_000),
    },
  });
  await expect(steps).toContainText("reminded", { timeout: 5_000 });
  // On a phone as on a desktop, the card with its steps fits the screen, each control a finger high.
  expect(await unreachable(card, "a, button, summary, input, select")).toEqual([]);
});
