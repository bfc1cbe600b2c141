import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { type AppInstance, startAppInstance } from "./topology/app-instance";

// The journeys' server answers at once (TOOLNEXUS_HOLD_SECONDS=0 in playwright.config.ts), so
// that every other journey sees decisions take effect without waiting. These journeys need the
// Undo window, so they run against an instance of their own: the same build, started with the
// production entry and a 5 s hold, on a database of its own that is migrated and seeded as the
// journeys' server's is. Only these journeys pay for the hold.
const PORT = Number(process.env.E2E_PORT || 3310) + 9;
const BASE_URL = `http://localhost:${PORT}`;
const DATA_DIR = path.join(process.env.E2E_DATA_DIR ?? "test-results", "undo-window");
const DATABASE_URL = `file:${path.join(DATA_DIR, "undo.db")}`;

test.use({ baseURL: BASE_URL, databaseUrl: DATABASE_URL });
test.describe.configure({ mode: "serial" });

let server: AppInstance | undefined;

function prepare(command: string, args: string[]) {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: process.env.E2E_CALLER_NODE_OPTIONS ?? "", DATABASE_URL },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mkdirSync(DATA_DIR, { recursive: true });
  prepare("npx", ["prisma", "migrate", "deploy"]);
  prepare("npm", ["run", "--silent", "db:seed"]);
  server = startAppInstance({
    port: PORT,
    env: {
      DATABASE_URL,
      TOOLNEXUS_APP_URL: BASE_URL,
      TOOLNEXUS_HOLD_SECONDS: "5",
      TOOLNEXUS_DEMO_DELTA_MS: "20",
      // No MCP servers: the refunds are the app's own tool.
      TOOLNEXUS_MCP_CONFIG: "",
    },
  });
  await server.ready();
});

test.afterAll(async () => {
  await server?.stop();
});

// Order numbers of this run only, so requests other tests leave behind never match.
const series = `U${Date.now().toString(36).toUpperCase()}`;
const refund = (n: number) =>
  [`refund order ${series}-${n} for $175`, `Approve a refund of $175.00 for order ${series}-${n}?`] as const;

test("Undo within the window leaves the request open: nothing ran and nothing changed elsewhere", async ({
  signInAs,
  db,
}) => {
  // Several chats and a reviewer on a shared, slow machine: more than the default minute.
  test.setTimeout(180_000);
  const [message, prompt] = refund(1);
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say(message);
  const card = chat.requestCard("approval", prompt);
  await expect(card).toContainText("Waiting for a reviewer.");

  // Everyone who looks is in place before the decision: the window is a few seconds long.
  const sam = await signInAs("reviewer", "Sam");
  const samInbox = new InboxPage(sam.page);
  await samInbox.goto(`?q=${encodeURIComponent(`order ${series}-1`)}`);
  await expect(samInbox.row(prompt)).toBeVisible();
  const rita = await signInAs("reviewer", "Rita");
  const inbox = new InboxPage(rita.page);
  await inbox.goto(`?q=${encodeURIComponent(`order ${series}-1`)}`);
  await inbox.selectRow(prompt);
  await inbox.detailForm.approve.click();

  const toast = rita.page.getByRole("region", { name: /Decisions/ });
  await expect(toast).toContainText("Approved");
  const undo = rita.page.getByRole("region", { name: /Decisions/ }).getByRole("button", { name: "Undo" });
  await expect(undo).toBeVisible();
  await expectAccessible(rita.page);

  // A colleague, whose inbox was open before, sees who is deciding, and the request still open.
  await expect(samInbox.row(prompt)).toContainText("Rita is deciding…");

  await undo.click();
  await expect(rita.page.getByRole("region", { name: /Decisions/ })).toContainText("Undone");
  await expect(inbox.detailForm.approve).toBeVisible();

  // Well past the window: still open, never answered, the tool never ran, the chat unchanged.
  await rita.page.waitForTimeout(7_000);
  const row = await db.request.findFirstOrThrow({
    where: { prompt },
    select: { status: true, answer: true, held: true },
  });
  expect(row).toEqual({ status: "open", answer: null, held: null });
  await expect(card).toContainText("Waiting for a reviewer.");
  await expect(chat.toolCard("refund")).toContainText("waiting for an answer");
  await expect(samInbox.row(prompt)).not.toContainText("deciding");
});

test("a decision made just before the tab closed still takes effect", async ({ signInAs, db }) => {
  // Several chats and a reviewer on a shared, slow machine: more than the default minute.
  test.setTimeout(180_000);
  const [message, prompt] = refund(2);
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say(message);
  const card = chat.requestCard("approval", prompt);
  await expect(card).toContainText("Waiting for a reviewer.");

  const rita = await signInAs("reviewer");
  const inbox = new InboxPage(rita.page);
  await inbox.goto(`?q=${encodeURIComponent(`order ${series}-2`)}`);
  await inbox.selectRow(prompt);
  await inbox.detailForm.approve.click();
  await expect(
    rita.page.getByRole("region", { name: /Decisions/ }).getByRole("button", { name: "Undo" }),
  ).toBeVisible();
  // Held, not yet answered; then the reviewer's browser goes away with its timer.
  expect((await db.request.findFirstOrThrow({ where: { prompt } })).status).toBe("open");
  await rita.context.close();

  await expect
    .poll(
      async () => (await db.request.findFirstOrThrow({ where: { prompt }, select: { status: true } })).status,
      {
        timeout: 15_000,
      },
    )
    .toBe("answered");
  expect(await db.answer.count({ where: { request: { prompt } } })).toBe(1);
  await expect(card).toContainText("Approved");
  await expect(chat.toolCard("refund")).toContainText(/Refunded \$175\.00/);
});

test("a bulk decision shows one toast with one Undo, then commits every request", async ({
  signInAs,
  db,
}) => {
  test.setTimeout(180_000);
  const asks = [refund(3), refund(4)] as const;
  const user = await signInAs("user");
  const chat = new ChatPage(user.page);
  for (const [message, prompt] of asks) {
    await chat.startNewChat();
    await chat.say(message);
    await expect(chat.requestCard("approval", prompt)).toContainText("Waiting for a reviewer.");
  }

  const rita = await signInAs("reviewer");
  const inbox = new InboxPage(rita.page);
  await inbox.goto(`?q=${encodeURIComponent(`order ${series}`)}&status=open`);
  for (const [, prompt] of asks) await inbox.select(prompt).check();
  await inbox.approveSelected.click();

  const toasts = rita.page.getByRole("region", { name: /Decisions/ });
  await expect(toasts).toContainText("2 requests approved");
  await expect(toasts.getByRole("button", { name: "Undo" })).toHaveCount(1);
  // Held: both still open until the window ends, then both answered, once each.
  const statuses = async () =>
    (
      await db.request.findMany({
        where: { prompt: { in: asks.map(([, prompt]) => prompt) } },
        select: { status: true },
      })
    )
      .map((row) => row.status)
      .sort();
  expect(await statuses()).toEqual(["open", "open"]);
  await expect.poll(statuses, { timeout: 15_000 }).toEqual(["answered", "answered"]);
  expect(
    await db.answer.count({ where: { request: { prompt: { in: asks.map(([, prompt]) => prompt) } } } }),
  ).toBe(2);
});
