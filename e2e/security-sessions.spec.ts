import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { AppShell } from "./pages/app-shell";
import { InboxPage } from "./pages/inbox-page";

// Sessions end when they should, live pages notice it, and forged or malformed requests are
// refused with a clear answer while nothing changes.

/** The id Next gave a server action in this build, read from the build's manifest. */
function actionId(name: string): string {
  const dir = process.env.NEXT_DIST_DIR || ".next";
  const manifest = JSON.parse(
    readFileSync(path.join(dir, "server/server-reference-manifest.json"), "utf8"),
  ) as {
    node: Record<string, { exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === name);
  if (!found) throw new Error(`no server action named ${name} in ${dir}`);
  return found[0];
}

function callAction(
  request: APIRequestContext,
  {
    name,
    cookie,
    body,
    headers = {},
  }: { name: string; cookie: string; body: string; headers?: Record<string, string> },
) {
  return request.post("/admin/users", {
    headers: {
      "next-action": actionId(name),
      "content-type": "text/plain;charset=UTF-8",
      cookie,
      ...headers,
    },
    data: body,
    maxRedirects: 0,
  });
}

test("signing out ends the session: the open inbox says so and stops, and the old cookie no longer works", async ({
  signInAs,
  browser,
}) => {
  const user = await signInAs("user");
  const saved = await user.context.cookies();
  const inbox = new InboxPage(user.page);
  await inbox.goto();
  await expect(inbox.live).toHaveText("Live");

  const other = await user.context.newPage();
  await other.goto("/chat");
  await new AppShell(other).signOut();

  const notice = user.page.getByRole("alert").filter({ hasText: "You are signed out" });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice.getByRole("link", { name: "Sign in" })).toHaveAttribute(
    "href",
    "/login?callbackUrl=%2Finbox",
  );
  // No more attempts once it knows.
  const attempts: string[] = [];
  user.page.on("request", (request) => {
    if (request.url().includes("/api/inbox/stream")) attempts.push(request.url());
  });
  await user.page.waitForTimeout(5_000);
  expect(attempts).toEqual([]);

  // A copy of the old cookie is refused too: the token itself was revoked.
  const stolen = await browser.newContext();
  await stolen.addCookies(saved);
  const page = await stolen.newPage();
  await page.goto("/inbox");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Finbox/);
  expect((await page.request.get("/api/inbox/stream")).status()).toBe(401);
  await stolen.close();
});

test("an admin signs a user out everywhere from /admin/users", async ({ signInAs, db }) => {
  const user = await signInAs("user");
  const admin = await signInAs("admin");
  await admin.page.goto(`/admin/users?q=${encodeURIComponent(user.user.email)}`);
  await admin.page.getByRole("button", { name: `Sign out everywhere for ${user.user.name}` }).click();
  await expect(admin.page.getByRole("status").filter({ hasText: "Signed out everywhere." })).toBeVisible();
  const audit = await db.auditLog.findMany({
    where: { targetId: user.user.id, action: "user.sessions_revoked" },
  });
  expect(audit.map((entry) => entry.actorId)).toEqual([admin.user.id]);

  await user.page.goto("/inbox");
  await expect(user.page).toHaveURL(/\/login/);
  // The admin's own session is untouched.
  await admin.page.goto("/admin/users");
  await expect(admin.page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
});

/**
 * One POST sent chunked (no Content-Length) in 64 KB pieces, as a client that never declares a
 * length does; resolves with the status and the body (JSON when it is JSON) once the answer is in.
 * Like any HTTP client it stops sending once an answer has come, and a write refused after that
 * (the server closes the connection of a refused body once the client has stopped, or past its
 * bounds) does not hide the answer.
 */
function postChunked(url: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: "POST", headers }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      const done = () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, body: parsed });
      };
      res.on("end", done);
      res.on("close", done);
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const bytes = Buffer.from(body);
    let sent = 0;
    const write = () => {
      while (sent < bytes.length) {
        if (answered || request.destroyed) return;
        const piece = bytes.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!request.write(piece)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
}

test("the production entry counts chunked bodies: 5 MB on the API or a server action is 413, repeated keys and deep nesting 400, and nothing changes", async ({
  signInAs,
  createUser,
  db,
  baseURL,
}) => {
  const admin = await signInAs("admin");
  const cookie = (await admin.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const target = await createUser("user");
  // Server-only modules: loaded in the worker, which resolves them as Next's server does.
  const { mintApiToken } = await import("@/lib/auth/api-token-auth");
  const { createApiToken } = await import("@/lib/db/api-tokens");
  const minted = mintApiToken();
  await createApiToken({
    db,
    userId: target.id,
    name: "e2e",
    scopes: ["requests:write"],
    expiresAt: null,
    limit: 20,
    ...minted,
  });
  const tooLarge = {
    code: "bad_request:body_too_large",
    status: 413,
    message: "The request body is larger than the 1 MB limit.",
    issues: [],
  };
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 2_000; i += 1) deep = { a: deep };
  const pointer = (prefix: string, levels: number) => `${prefix}/${Array(levels).fill("a").join("/")}`;

  const api = (body: string) =>
    postChunked(`${baseURL}/api/v1/requests`, body, {
      authorization: `Bearer ${minted.token}`,
      "content-type": "application/json",
    });
  const pad = "x".repeat(5 * 1024 * 1024);
  expect(await api(JSON.stringify({ kind: "approval", prompt: "Big?", data: { pad } }))).toEqual({
    status: 413,
    body: tooLarge,
  });
  expect(await api(JSON.stringify({ kind: "approval", prompt: "Deep?", data: deep }))).toMatchObject({
    status: 400,
    body: { code: "bad_request:input", issues: [{ path: pointer("/data", 63) }] },
  });
  expect(await api('{"kind":"approval","prompt":"Ship?","data":{"env":"a","env":"b"}}')).toMatchObject({
    status: 400,
    body: { code: "bad_request:input", issues: [{ path: "/data/env" }] },
  });
  expect(await db.request.count({ where: { ownerId: target.id } })).toBe(0);

  const action = (body: string) =>
    postChunked(`${baseURL}/admin/users`, body, {
      "next-action": actionId("signOutUserEverywhereAction"),
      "content-type": "text/plain;charset=UTF-8",
      cookie,
      origin: baseURL!,
    });
  expect(await action(JSON.stringify([{ userId: target.id, pad }]))).toEqual({ status: 413, body: tooLarge });
  expect(await action(JSON.stringify([{ userId: target.id, deep }]))).toMatchObject({
    status: 400,
    body: { issues: [{ path: pointer("/0/deep", 62) }] },
  });
  expect(await action(`[{"userId":"nobody","userId":"${target.id}"}]`)).toMatchObject({
    status: 400,
    body: { issues: [{ path: "/0/userId", message: "repeats a key of the same object" }] },
  });
  const versionOf = async () =>
    (await db.user.findUniqueOrThrow({ where: { id: target.id }, select: { sessionVersion: true } }))
      .sessionVersion;
  expect(await versionOf()).toBe(0);
  // A well-formed chunked call still goes through, whole.
  expect((await action(JSON.stringify([{ userId: target.id }]))).status).toBe(200);
  expect(await versionOf()).toBe(1);
});

test("a server action from another origin is refused even with a matching X-Forwarded-Host", async ({
  signInAs,
  createUser,
  db,
  request,
  baseURL,
}) => {
  const admin = await signInAs("admin");
  const cookie = (await admin.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const target = await createUser("user");
  const versionOf = async () =>
    (await db.user.findUniqueOrThrow({ where: { id: target.id }, select: { sessionVersion: true } }))
      .sessionVersion;
  const before = await versionOf();
  const body = JSON.stringify([{ userId: target.id }]);

  const forged = await callAction(request, {
    name: "signOutUserEverywhereAction",
    cookie,
    body,
    headers: { origin: "http://evil.example", "x-forwarded-host": "evil.example" },
  });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toEqual({
    code: "forbidden:origin",
    status: 403,
    message: "This action was sent from another site and was refused.",
    issues: [],
  });
  expect(await versionOf()).toBe(before);

  // The same call from the app's own origin works, so the refusal was the origin's doing.
  const genuine = await callAction(request, {
    name: "signOutUserEverywhereAction",
    cookie,
    body,
    headers: { origin: baseURL! },
  });
  expect(genuine.status()).toBe(200);
  expect(await versionOf()).toBe(before + 1);
});

test("malformed and oversized bodies get a 4xx saying what was wrong, and change nothing", async ({
  signInAs,
  createUser,
  db,
  request,
  baseURL,
}) => {
  const admin = await signInAs("admin");
  const cookie = (await admin.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const target = await createUser("user");
  const headers = { origin: baseURL! };

  const malformed = await callAction(request, {
    name: "signOutUserEverywhereAction",
    cookie,
    body: `[{"userId": "${target.id}"`,
    headers,
  });
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).message).toMatch(/^The request body is not valid JSON \(.+\)\.$/);

  const huge = await callAction(request, {
    name: "signOutUserEverywhereAction",
    cookie,
    body: JSON.stringify([{ userId: target.id, pad: "x".repeat(1024 * 1024) }]),
    headers,
  });
  expect(huge.status()).toBe(413);
  expect((await huge.json()).message).toBe("The request body is larger than the 1 MB limit.");

  const stored = await db.user.findUniqueOrThrow({
    where: { id: target.id },
    select: { sessionVersion: true },
  });
  expect(stored.sessionVersion).toBe(0);
});

test("the inbox refuses a NUL byte or an over-long search with a message, and takes % literally", async ({
  signInAs,
}) => {
  const user = await signInAs("user");
  const inbox = new InboxPage(user.page);
  const alert = user.page.getByRole("main").getByRole("alert");

  const nul = await user.page.goto("/inbox?q=deploy%00now");
  expect(nul?.status()).toBe(200);
  await expect(alert).toContainText("The search contains control characters (such as a NUL byte)");

  await inbox.goto(`?q=${"x".repeat(201)}`);
  await expect(alert).toHaveText(
    "Searches can be at most 200 characters long; this one has 201. Shorten it and search again.",
  );
  await expect(inbox.list).toHaveCount(0);

  await inbox.goto("?q=%25");
  await expect(alert).toHaveCount(0);
  await expect(inbox.empty).toBeVisible();
});

test("repeated wrong passwords are refused for a while, saying when to try again", async ({
  loginPage,
  createUser,
  page,
}) => {
  const user = await createUser("user");
  for (let attempt = 0; attempt < 5; attempt += 1) {
    // A fresh form each time: a refused attempt re-renders the form, emptying the password.
    await loginPage.goto();
    await loginPage.signIn(user.email, "not-the-password");
    await expect(loginPage.error).toHaveText("Wrong email or password.");
  }
  await loginPage.goto();
  await loginPage.signIn(user.email, user.password);
  await expect(loginPage.error).toHaveText("Too many sign-in attempts. Try again in 15 minutes.");
  await expect(page).toHaveURL(/\/login/);
});
