import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { upsertUserByEmail } from "@/lib/db/users";
import { AppProcess } from "./app-process";
import { expect, test } from "./fixtures";
import { InboxPage } from "./pages/inbox-page";
import { RequestForm } from "./pages/request-form";
import { addSessionCookie } from "./session-cookie";

// A plain Node agent (examples/inbox/deploy-approval.mts) whose deploy tool waits, through the
// HTTP API and createInboxWaitFor, for a reviewer who approves in the web inbox.

/** The example agent as a child process, with what it printed so far. */
function startAgent(env: { url: string; token: string; version: string }) {
  let output = "";
  // Node with tsx's loader, one process: the tsx command runs the script in a child of its own,
  // which a SIGKILL to the command would leave running.
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join("examples", "inbox", "deploy-approval.mts")],
    {
      env: {
        ...process.env,
        NODE_OPTIONS: process.env.E2E_CALLER_NODE_OPTIONS ?? "",
        TOOLNEXUS_URL: env.url,
        TOOLNEXUS_TOKEN: env.token,
        DEPLOY_VERSION: env.version,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    output: () => output,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

async function apiRequests(origin: string, token: string): Promise<{ id: string; status: string }[]> {
  const response = await fetch(`${origin}/api/v1/requests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) return [];
  return (await response.json()).requests;
}

async function approveInInbox(page: Page, prompt: string, note: string) {
  const inbox = new InboxPage(page);
  await inbox.goto();
  await expect(inbox.row(prompt)).toBeVisible();
  await inbox.open(prompt);
  await expect(page.getByText("made through the API")).toBeVisible();
  const form = new RequestForm(page.getByRole("main"));
  await form.field("Note").fill(note);
  await form.approve.click();
  await form.expectReadOnly("Approved");
}

test("a token made at /settings/tokens lets a script ask, and a reviewer's approval in the inbox reaches it", async ({
  signInAs,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await signInAs("user", "Script owner");
  await owner.page.goto("/settings/tokens");
  await owner.page.getByLabel("Name").fill("deploy script");
  await owner.page.getByRole("button", { name: "Create token" }).click();
  const shown = owner.page.getByTestId("new-token");
  await expect(shown).toHaveText(/^tnx_/);
  const token = (await shown.textContent())!.trim();
  // Listed by its first characters only; the page never renders it again.
  const row = owner.page.getByTestId("token-deploy script");
  await expect(row).toContainText(token.slice(0, 10));
  await owner.page.reload();
  await expect(owner.page.getByTestId("token-deploy script")).toBeVisible();
  expect(await owner.page.content()).not.toContain(token);
  // A token is no session: a page asked with it is sent to sign in.
  const page = await fetch(`${baseURL}/inbox`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: "manual",
  });
  expect(page.status).toBe(307);
  expect(page.headers.get("location")).toContain("/login");

  // The API describes itself to anyone; an unknown call is the API's JSON 404, not a page.
  const document = await (await fetch(`${baseURL}/api/v1/openapi.json`)).json();
  expect(document.openapi).toBe("3.1.0");
  const unknown = await fetch(`${baseURL}/api/v1/nothing-here`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect([unknown.status, (await unknown.json()).code]).toEqual([404, "not_found:route"]);

  const version = `v1.${randomBytes(2).readUInt16BE()}`;
  const agent = startAgent({ url: baseURL!, token, version });
  try {
    await expect.poll(() => apiRequests(baseURL!, token), { timeout: 30_000 }).toHaveLength(1);
    const reviewer = await signInAs("reviewer", "Rita Inbox");
    await approveInInbox(reviewer.page, `Deploy ${version} to production?`, "ship it");
    expect(await agent.exited).toBe(0);
    expect(agent.output()).toContain(`ok: Result: deployed ${version} (note: ship it)`);
  } finally {
    await agent.kill();
  }
  // Its last use shows; an admin revokes it, and its next call is refused.
  await owner.page.reload();
  await expect(owner.page.getByTestId("token-deploy script")).not.toContainText("never");
  const admin = await signInAs("admin", "Token admin");
  await admin.page.goto("/admin/tokens");
  const listed = admin.page.getByTestId("token-deploy script").filter({ hasText: "Script owner" });
  await listed.getByRole("button", { name: "Revoke deploy script" }).click();
  await expect(listed).toContainText("revoked");
  const refused = await fetch(`${baseURL}/api/v1/requests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect([refused.status, (await refused.json()).code]).toEqual([401, "unauthorized:token"]);
});

test.describe("across restarts", () => {
  // This test restarts the app, so it runs its own server (same build, its own database).
  const port = Number(process.env.E2E_PORT || 3310) + 9;
  let dataDir: string;
  let app: AppProcess;

  test.beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "toolnexus-e2e-api-"));
    app = new AppProcess(port, dataDir);
    await app.start();
  });
  test.afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("an agent restarted while it waits finds its request again, and outlasts the inbox's restarts", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    // Server-only modules: loaded in the worker, which resolves them as Next's server does.
    const { createDb } = await import("@/lib/db/sql/client");
    const { mintApiToken } = await import("@/lib/auth/api-token-auth");
    const { createApiToken } = await import("@/lib/db/api-tokens");
    const db = createDb({ url: app.databaseUrl });
    const suffix = randomBytes(3).toString("hex");
    const owner = await upsertUserByEmail({
      db,
      email: `agent-${suffix}@e2e.test`,
      name: "Agent owner",
      role: "user",
      passwordHash: null,
    });
    const reviewer = await upsertUserByEmail({
      db,
      email: `rev-${suffix}@e2e.test`,
      name: "Reviewer",
      role: "reviewer",
      passwordHash: null,
    });
    const minted = mintApiToken();
    await createApiToken({
      db,
      userId: owner.id,
      name: "agent",
      scopes: ["requests:write", "requests:read"],
      expiresAt: null,
      limit: 20,
      ...minted,
    });
    const context = await browser.newContext({ baseURL: app.origin });
    await addSessionCookie(context, { db, userId: reviewer.id, baseURL: app.origin });
    await db.$disconnect();
    const env = { url: app.origin, token: minted.token, version: "v2.0" };

    // The first agent asks, then dies while it waits.
    const first = startAgent(env);
    await expect.poll(() => apiRequests(app.origin, minted.token), { timeout: 30_000 }).toHaveLength(1);
    const [asked] = await apiRequests(app.origin, minted.token);
    await first.kill();

    // The inbox restarts with nobody waiting; then the agent starts again and waits.
    await app.stop();
    await app.start();
    const second = startAgent(env);
    try {
      await expect.poll(() => second.output(), { timeout: 30_000 }).toContain("waiting for a reviewer");
      // Its create, replayed, found the same request; give it time to be waiting on it.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      // The inbox restarts while the agent waits: its poll fails and it comes back.
      await app.stop();
      await expect.poll(() => second.output(), { timeout: 30_000 }).toContain("inbox unreachable");
      await app.start();

      const page = await context.newPage();
      await approveInInbox(page, "Deploy v2.0 to production?", "after two restarts");
      expect(await second.exited).toBe(0);
      expect(second.output()).toContain("ok: Result: deployed v2.0 (note: after two restarts)");
      const requests = await apiRequests(app.origin, minted.token);
      expect(requests.map((request) => [request.id, request.status])).toEqual([[asked!.id, "answered"]]);
    } finally {
      await second.kill();
      await context.close();
    }
  });
});
