import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hashPassword } from "@/lib/auth/verify-credentials";
import { upsertUserByEmail } from "@/lib/db/users";
import { AppProcess } from "./app-process";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { LoginPage } from "./pages/login-page";
import { RequestForm } from "./pages/request-form";

const PROMPT = "Which ticket should be opened?";

// This test restarts the app, so it runs its own `next start` (same build, its own database
// and ticket tracker) on a port next to the shared test server's.
const port = Number(process.env.E2E_PORT || 3310) + 8;
let dataDir: string;
let app: AppProcess;

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "toolnexus-e2e-restart-"));
  app = new AppProcess(port, dataDir);
  await app.start();
});
test.afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("an MCP server's question, parked in the chat, is answered from the inbox after the app was restarted", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { createDb } = await import("@/lib/db/sql/client");
  const db = createDb({ url: app.databaseUrl });
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const email = `restart-${randomBytes(3).toString("hex")}@e2e.test`;
  await upsertUserByEmail({
    db,
    email,
    name: "Restart owner",
    role: "user",
    passwordHash: await hashPassword(password),
  });
  await db.$disconnect();

  const context = await browser.newContext({ baseURL: app.origin });
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(email, password);
  await expect(page).toHaveURL(/\/chat/);

  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.say("open a ticket");
  // Opening a ticket is neither read-only nor destructive: the chat's owner approves it first.
  await chat.approveOpenApproval();
  // The tracker's form, drawn in the chat card from the schema the server sent.
  const card = chat.requestCard("input", PROMPT);
  await expect(card).toContainText("You must act", { timeout: 30_000 });
  const inCard = new RequestForm(card);
  await expect(inCard.field("Title")).toBeVisible();
  // The server's default is preselected (the form's option values are indexes, so read the label).
  await expect(inCard.field("Priority").locator("option:checked")).toHaveText("normal");
  const threadId = chat.threadId();

  await app.stop();
  await app.start();

  // After the restart the question waits in the inbox; the form there still validates.
  const inbox = new InboxPage(page);
  await inbox.goto();
  await expect(inbox.row(PROMPT)).toBeVisible();
  await inbox.open(PROMPT);
  const form = new RequestForm(page.getByRole("main"));
  await form.field("Title").fill("no");
  await form.submit.click();
  await expect(form.root.getByText("Title must be at least 3 characters.")).toBeVisible();
  await form.field("Title").fill("Printer on fire");
  await form.field("Priority").selectOption({ label: "high" });
  await form.submit.click();
  await form.expectReadOnly("Answered");

  // The restarted app asked the tracker again and gave it the stored answer: the ticket exists once.
  await page.goto(`/chat/${threadId}`);
  await expect(chat.toolCard("tickets_open_ticket")).toContainText(
    /Opened #\d+ \[open\] \(high\) Printer on fire/,
  );
  await expect(chat.requestCard("input", PROMPT)).toContainText("Answered");
  await chat.say("list my tickets");
  const listed = chat.toolCard("tickets_list_tickets");
  await expect(listed).toContainText("Printer on fire");
  expect(((await listed.textContent()) ?? "").split("Printer on fire").length - 1).toBe(1);
  await context.close();
});
