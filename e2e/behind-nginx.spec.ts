import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import type { Db } from "@/lib/db/sql/client";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { LoginPage } from "./pages/login-page";
import { RequestPage } from "./pages/request-page";
import { type AppInstance, startAppInstance } from "./topology/app-instance";
import { startNginx, UPSTREAM_FAIL_TIMEOUT_MS } from "./topology/nginx";
import { createPostgresDatabase } from "./topology/postgres-database";

// The production topology: nginx in front of two instances on one PostgreSQL, no sticky sessions.
const BASE = Number(process.env.E2E_PORT || 3310);
const PORTS = [BASE + 20, BASE + 21];
const PROXY_PORT = BASE + 22;
const PROMPT = "Approve deploying web v1.4 to production?";
const PASSWORD = "behind-nginx-password";

let dir: string;
let db: Db;
let database: { url: string; drop: () => Promise<void> };
let proxy: { url: string; stop: () => Promise<void> };
const instances: AppInstance[] = [];

function instanceEnv(url: string, publicUrl: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    TOOLNEXUS_APP_URL: publicUrl,
    // nginx runs on this machine: its forwarded headers are the only ones to believe.
    TOOLNEXUS_TRUSTED_PROXIES: "127.0.0.1",
    TOOLNEXUS_DEMO_DELTA_MS: "20",
  };
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(path.join(tmpdir(), "toolnexus-nginx-"));
  database = await createPostgresDatabase("toolnexus_nginx");
  const { migrateDatabase } = await import("@/lib/db/sql/migrate-database");
  const { createDb } = await import("@/lib/db/sql/client");
  const { upsertUserByEmail } = await import("@/lib/db/users");
  const { hashPassword } = await import("@/lib/auth/verify-credentials");
  await migrateDatabase({ url: database.url });
  db = createDb({ url: database.url });
  const passwordHash = await hashPassword(PASSWORD);
  await upsertUserByEmail({
    db,
    email: "proxied-user@example.test",
    name: "Proxied User",
    role: "user",
    passwordHash,
  });
  await upsertUserByEmail({
    db,
    email: "proxied-reviewer@example.test",
    name: "Proxied Reviewer",
    role: "reviewer",
    passwordHash,
  });

  const publicUrl = `http://localhost:${PROXY_PORT}`;
  for (const port of PORTS)
    instances.push(startAppInstance({ port, env: instanceEnv(database.url, publicUrl) }));
  await Promise.all(instances.map((instance) => instance.ready()));
  proxy = await startNginx({ dir: path.join(dir, "nginx"), port: PROXY_PORT, upstreamPorts: PORTS });
});

test.afterAll(async () => {
  await proxy?.stop();
  await Promise.all(instances.map((instance) => instance.stop("SIGKILL")));
  await db?.$disconnect();
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The pages this journey opened, so a failure can say what each of them showed.
const pages: Page[] = [];

test.afterEach(async ({ browserName: _ }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const page of pages.splice(0)) {
    const text =
      (await page
        .locator("main")
        .first()
        .textContent({ timeout: 2_000 })
        .catch((error: unknown) => String(error))) ?? "";
    console.log(`[behind-nginx] ${page.url()} showed:\n${text.slice(0, 2_000)}`);
  }
});

async function signIn(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: proxy.url });
  const page = await context.newPage();
  pages.push(page);
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(email, PASSWORD);
  // The home page sends a reviewer with something waiting to the inbox, everyone else to the chat.
  await expect(page).toHaveURL(/\/(chat|inbox)/);
  return page;
}

/** Restarts one instance while the other keeps serving through the proxy. */
async function restart(index: number) {
  const publicUrl = `http://localhost:${PROXY_PORT}`;
  await instances[index]!.stop("SIGTERM");
  // With one instance down the proxy still serves every page.
  const response = await fetch(`${proxy.url}/login`);
  expect(response.status).toBe(200);
  instances[index] = startAppInstance({ port: PORTS[index]!, env: instanceEnv(database.url, publicUrl) });
  await instances[index]!.ready();
  // nginx may have marked it failed while it was down (a live stream reconnecting); until that
  // lapses, stopping the other instance would leave nginx no upstream at all, as in production.
  await new Promise((resolve) => setTimeout(resolve, UPSTREAM_FAIL_TIMEOUT_MS + 500));
}

test("through nginx, a chat follows its run live and an approval goes through while each instance restarts", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const userPage = await signIn(browser, "proxied-user@example.test");
  const chat = new ChatPage(userPage);
  await chat.startNewChat();
  await chat.say("deploy v1.4 to production");
  const card = chat.requestCard("approval", PROMPT);
  await expect(card).toBeVisible();

  // The user's live stream may be held by either instance; restart the first one under it.
  await restart(0);

  const reviewerPage = await signIn(browser, "proxied-reviewer@example.test");
  const inbox = new InboxPage(reviewerPage);
  await inbox.goto();
  await inbox.open(PROMPT);
  const request = new RequestPage(reviewerPage);
  await request.form.approve.click();
  await request.form.expectReadOnly("Approved");

  // Never reloaded: the answer and the deploy's result reach the chat through the proxy.
  await expect(card).toContainText("Approved");
  await expect(chat.toolCard("deploy")).toContainText(/Deployed web v1\.4 to production/, {
    timeout: 30_000,
  });
  await expect(chat.input).toBeEditable();

  await restart(1);
  await chat.say("deploy api v2.0 to staging");
  await expect(chat.toolCard("deploy").last()).toContainText(/Deployed api v2\.0 to staging/, {
    timeout: 30_000,
  });
  await expect(chat.assistantMessages().last()).toContainText(/Deployed api v2\.0 to staging/);
});
