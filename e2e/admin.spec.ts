import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { AdminPage } from "./pages/admin-page";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

/** An order number no other test or earlier run uses, so lists and searches meet only ours. */
function uniqueOrder(): string {
  return `A${Date.now().toString(36)}${randomBytes(2).toString("hex")}`.toUpperCase();
}

/** Asks for a refund in a new chat and waits for the approval it parks on. */
async function parkRefund(chat: ChatPage, order: string, amount = 250) {
  const message = `refund order ${order} for $${amount}`;
  await chat.startNewChat();
  await chat.say(message);
  const card = chat.requestCard("approval", `Approve a refund of $${amount}.00 for order ${order}?`);
  await expect(card).toContainText("Waiting for a reviewer.");
  return { message, card, threadId: chat.threadId() };
}

test("an admin's role change applies on that user's next request, without signing in again", async ({
  signInAs,
  db,
}) => {
  const owner = await signInAs("user");
  const chat = new ChatPage(owner.page);
  const first = await parkRefund(chat, uniqueOrder());
  const second = await parkRefund(chat, uniqueOrder(), 260);
  const [firstRow, secondRow] = await Promise.all(
    [first, second].map(({ threadId }) => db.request.findFirstOrThrow({ where: { threadId } })),
  );

  const member = await signInAs("user");
  const request = new RequestPage(member.page);
  // Not theirs to see: it reads as unknown, exactly like an id that does not exist.
  expect((await member.page.goto(`/requests/${firstRow!.id}`))?.status()).toBe(404);

  const admin = await signInAs("admin");
  const adminPage = new AdminPage(admin.page);
  await admin.shell.link("Admin").click();
  await expect(admin.page).toHaveURL(/\/admin\/users$/);
  await expect(admin.shell.link("Admin")).toHaveAttribute("aria-current", "page");
  await adminPage.searchFor(member.user.email);
  await expect(adminPage.userRows()).toHaveCount(1);
  await expect(adminPage.userRow(member.user.email)).toContainText(member.user.name);
  await adminPage.changeRole(member.user.email, "reviewer");

  // Same browser, same session cookie: the next page load already carries the new role.
  expect((await member.page.goto(`/requests/${firstRow!.id}`))?.status()).toBe(200);
  await member.shell.expectSignedIn(member.user.name, "reviewer");
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");
  const answer = await db.answer.findUniqueOrThrow({ where: { requestRowId: firstRow!.id } });
  expect(answer).toMatchObject({ actorId: member.user.id, ok: true });

  // A reviewer's page left open across a demotion: its Approve is refused, and so is the page.
  await request.goto(secondRow!.id);
  await expect(request.form.approve).toBeVisible();
  await adminPage.changeRole(member.user.email, "user");
  await request.form.approve.click();
  // No longer theirs to see: refused as if unknown, like an id that does not exist.
  await expect(request.form.alert).toHaveText("This request does not exist.");
  expect((await member.page.goto(`/requests/${secondRow!.id}`))?.status()).toBe(404);
  await expect(member.page.getByRole("heading", { name: "404 — Not found" })).toBeVisible();
  await member.shell.expectSignedIn(member.user.name, "user");
  expect((await db.request.findUniqueOrThrow({ where: { id: secondRow!.id } })).status).toBe("open");

  const audit = await db.auditLog.findMany({
    where: { targetType: "user", targetId: member.user.id },
    orderBy: { createdAt: "asc" },
    select: { actorId: true, detail: true },
  });
  expect(audit).toEqual([
    { actorId: admin.user.id, detail: { from: "user", to: "reviewer" } },
    { actorId: admin.user.id, detail: { from: "reviewer", to: "user" } },
  ]);

  // An admin's own row offers no way to change their role.
  await adminPage.searchFor(admin.user.email);
  await expect(adminPage.roleSelect(admin.user.email)).toBeDisabled();
});

test("an admin cancels a user's parked run from the runs page, and the user's open chat shows it at once", async ({
  signInAs,
  db,
}) => {
  const owner = await signInAs("user");
  const chat = new ChatPage(owner.page);
  const { message, card, threadId } = await parkRefund(chat, uniqueOrder());
  // Gone if the page reloads: proves the cancel arrives over the open stream.
  await owner.page.evaluate(() => {
    (window as unknown as { stillOpen: boolean }).stillOpen = true;
  });

  const admin = await signInAs("admin");
  const adminPage = new AdminPage(admin.page);
  await adminPage.gotoRuns();
  const row = adminPage.runRow(message);
  await expect(row).toContainText(owner.user.name);
  await expect(row).toContainText("parked");
  await adminPage.cancelRun(message);
  await expect(adminPage.runOutcome).toHaveText(`Cancelled the run of “${message}”.`);
  await expect(row).toHaveCount(0);

  await expect(chat.messages).toContainText("The run was cancelled.");
  await expect(card).toContainText("Cancelled");
  await expect(card).toContainText("By an admin");
  await expect(chat.stop).toHaveCount(0);
  expect(await owner.page.evaluate(() => (window as unknown as { stillOpen?: boolean }).stillOpen)).toBe(
    true,
  );

  const run = await db.run.findFirstOrThrow({ where: { threadId } });
  expect(run.status).toBe("cancelled");
  const audit = await db.auditLog.findFirstOrThrow({ where: { targetType: "run", targetId: run.id } });
  expect(audit.actorId).toBe(admin.user.id);
});

test("cancelling a run that has ended meanwhile says so and changes nothing", async ({ signInAs, db }) => {
  const owner = await signInAs("user");
  const chat = new ChatPage(owner.page);
  const { message, threadId } = await parkRefund(chat, uniqueOrder());

  const admin = await signInAs("admin");
  const adminPage = new AdminPage(admin.page);
  await adminPage.gotoRuns();
  await adminPage.runRow(message).getByRole("button", { name: "Cancel run" }).click();

  await chat.stop.click();
  await expect(chat.messages).toContainText("The run was cancelled.");

  await adminPage.runRow(message).getByRole("button", { name: "Yes, cancel the run" }).click();
  await expect(adminPage.runAlert).toHaveText(`“${message}”: This run has already ended.`);
  await expect(adminPage.runRow(message)).toHaveCount(0);
  const run = await db.run.findFirstOrThrow({ where: { threadId } });
  const audit = await db.auditLog.findMany({ where: { targetType: "run", targetId: run.id } });
  expect(audit.map((entry) => entry.actorId)).toEqual([owner.user.id]);
});

test("only admins see the Admin link and the admin pages", async ({ signInAs, page }) => {
  for (const role of ["reviewer", "user"] as const) {
    const someone = await signInAs(role);
    await expect(someone.shell.link("Inbox")).toBeVisible();
    await expect(someone.shell.link("Admin")).toHaveCount(0);
    for (const path of ["/admin/users", "/admin/runs", "/admin/tools"]) {
      const response = await someone.page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(someone.page.getByRole("heading", { name: "403 — Forbidden" })).toBeVisible();
      await expect(someone.page.getByRole("table")).toHaveCount(0);
    }
  }

  await page.goto("/admin/runs");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fadmin%2Fruns$/);

  const admin = await signInAs("admin");
  await expect(admin.shell.link("Admin")).toBeVisible();
  await admin.page.goto("/admin");
  await expect(admin.page).toHaveURL(/\/admin\/users$/);
  await new AdminPage(admin.page).tabs.getByRole("link", { name: "Runs" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/runs$/);
  await expect(admin.page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
});
