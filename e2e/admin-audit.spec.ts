import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";

// Versions of this run only, so the rows below are this test's own.
const stamp = Date.now() % 100_000;
const edited = { asked: `v7.${stamp}`, approved: `v7.${stamp}.1` };
const declined = `v7.${stamp + 1}`;
const prompt = (version: string) => `Approve deploying web ${version} to production?`;
const FORMULA = '=HYPERLINK("http://evil.example","click")';

test("the audit shows who answered what, filters by person, tool, outcome and date, and exports safe CSV", async ({
  signInAs,
  request,
}) => {
  // Two chats, a reviewer and an admin, the first pages of a fresh server: more than a minute on a
  // busy two-core machine.
  test.setTimeout(150_000);
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  for (const version of [edited.asked, declined]) {
    await chat.startNewChat();
    await chat.say(`deploy ${version} to production`);
    await expect(chat.requestCard("approval", prompt(version))).toBeVisible();
  }

  const rita = await signInAs("reviewer");
  const ritaInbox = new InboxPage(rita.page);
  await ritaInbox.goto(`?q=${encodeURIComponent(edited.asked)}`);
  await ritaInbox.selectRow(prompt(edited.asked));
  await ritaInbox.detailForm.field("Version").fill(edited.approved);
  await ritaInbox.detailForm.approve.click();
  await ritaInbox.detailForm.expectReadOnly("Approved");

  const sam = await signInAs("reviewer");
  const samInbox = new InboxPage(sam.page);
  await samInbox.goto(`?q=${encodeURIComponent(declined)}`);
  await samInbox.selectRow(prompt(declined));
  await samInbox.detailForm.declineWith(FORMULA);
  await samInbox.detailForm.expectReadOnly("Declined");

  const admin = await signInAs("admin");
  const page = admin.page;
  await page.goto("/admin/audit");
  const filters = page.getByRole("form", { name: "Filter answers" });
  const table = page.getByRole("table", { name: "Answers" });
  const row = (text: string) => table.getByRole("row").filter({ hasText: text });
  await filters.getByLabel("Person").selectOption({ label: rita.user.name });
  await filters.getByLabel("Tool").selectOption("deploy");
  await filters.getByLabel("From").fill(new Date().toISOString().slice(0, 10));
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/person=[^&]+&tool=deploy&outcome=&from=\d{4}-\d{2}-\d{2}/);
  await expect(row(prompt(edited.asked))).toContainText(rita.user.name);
  await expect(row(prompt(edited.asked))).toContainText("Approved");
  const changes = row(prompt(edited.asked)).getByRole("list", { name: "Changed before approving" });
  await expect(changes).toContainText(`arguments.version: "${edited.asked}" → "${edited.approved}"`);
  await expect(row(prompt(declined))).toHaveCount(0);
  await expectAccessible(page);

  await page.goto("/admin/audit?outcome=declined&tool=deploy");
  await expect(row(prompt(declined))).toContainText(sam.user.name);
  await expect(row(prompt(declined))).toContainText(`Reason: ${FORMULA}`);
  await expect(row(prompt(edited.asked))).toHaveCount(0);
  // A day before any answer: nothing.
  await page.goto("/admin/audit?to=2000-01-01");
  await expect(page.getByText("No answers match these filters.")).toBeVisible();

  // The filter and the CSV use the page's words: an approval is "approved", in red nowhere.
  await page.goto("/admin/audit?tool=deploy");
  await filters.getByLabel("Outcome").selectOption({ label: "Approved" });
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/outcome=approved/);
  await expect(row(prompt(edited.asked)).locator(".badge-approved")).toHaveText("Approved");
  await expect(row(prompt(declined))).toHaveCount(0);
  const approvedCsv = await (
    await page.request.get("/admin/audit/export?outcome=approved&tool=deploy")
  ).text();
  expect(approvedCsv).toContain(`"approved","deploy","approval","${prompt(edited.asked)}"`);
  await page.goto("/admin/audit?outcome=declined&tool=deploy");
  await expect(row(prompt(declined)).locator(".badge-declined")).toHaveText("Declined");

  // The CSV has the page's filters, and a formula in it is only text.
  await page.goto("/admin/audit?outcome=declined&tool=deploy");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download as CSV" }).click();
  const csvPath = await (await download).path();
  const csv = await import("node:fs/promises").then((fs) => fs.readFile(csvPath, "utf8"));
  expect(csv.split("\r\n")[0]).toContain('"answered_by","outcome","tool"');
  expect(csv).toContain(`"'${FORMULA.replaceAll('"', '""')}"`);
  expect(csv).not.toContain(`,"${FORMULA.replaceAll('"', '""')}"`);
  expect(csv).not.toContain(prompt(edited.asked));

  // A reviewer sees only their own answers, on the page and in the export, whatever they ask for.
  await rita.page.goto(`/admin/audit?person=${sam.user.id}`);
  await expect(rita.page.getByRole("heading", { level: 1, name: "Your answers" })).toBeVisible();
  await expect(rita.page.getByRole("form", { name: "Filter answers" }).getByLabel("Person")).toHaveCount(0);
  await expect(rita.page.getByRole("table", { name: "Answers" })).toContainText(prompt(edited.asked));
  await expect(rita.page.getByRole("table", { name: "Answers" })).not.toContainText(prompt(declined));
  const own = await rita.page.request.get(`/admin/audit/export?person=${sam.user.id}`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toMatch(/^text\/csv/);
  const ownCsv = await own.text();
  expect(ownCsv).toContain(prompt(edited.asked));
  expect(ownCsv).not.toContain(prompt(declined));

  // Users and strangers get nothing.
  expect((await user.page.goto("/admin/audit"))?.status()).toBe(403);
  expect((await user.page.request.get("/admin/audit/export")).status()).toBe(403);
  expect((await request.get("/admin/audit/export")).status()).toBe(401);
});
