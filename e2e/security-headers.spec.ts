import type { BrowserContext, Page, Response } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { InboxPage } from "./pages/inbox-page";
import { RequestForm } from "./pages/request-form";

// Every response carries the security headers, and every page works under the policy with no
// violation: the sign-in form, a streaming chat with a schema form (RJSF), the inbox and admin.

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Collects CSP violations in every page of the context, reported by the browser itself. */
async function watchViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations!.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
}

async function violationsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__cspViolations ?? []);
}

function scriptSrc(csp: string): string {
  return csp.split(";").find((part) => part.trim().startsWith("script-src")) ?? "";
}

function expectSecurityHeaders(response: Response | null): string {
  expect(response).not.toBeNull();
  const headers = response!.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(scriptSrc(csp)).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(scriptSrc(csp)).not.toContain("'unsafe-inline'");
  expect(scriptSrc(csp)).not.toContain("'unsafe-eval'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["x-frame-options"]).toBe("DENY");
  // Served over plain HTTP here: HSTS would be ignored, and is not sent.
  expect(headers["strict-transport-security"]).toBeUndefined();
  return csp;
}

test("pages, API responses and static files carry the security headers, with a fresh nonce each time", async ({
  page,
  request,
}) => {
  const first = expectSecurityHeaders(await page.goto("/login"));
  const second = expectSecurityHeaders(await page.goto("/login"));
  expect(scriptSrc(first)).not.toBe(scriptSrc(second));

  // Next's own scripts carry this response's nonce, and nothing inline runs without it.
  const nonce = /'nonce-([^']+)'/.exec(second)![1]!;
  const scripts = await page
    .locator("script")
    .evaluateAll((nodes) => nodes.map((node) => (node as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  for (const value of scripts) expect(value).toBe(nonce);

  const api = await request.get("/api/inbox/stream");
  expect(api.status()).toBe(401);
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  const asset = await page.locator("script[src]").first().getAttribute("src");
  const file = await request.get(asset!);
  expect(file.status()).toBe(200);
  expect(file.headers()["x-content-type-options"]).toBe("nosniff");
});

test("no other site can frame the app (the Approve button cannot be overlaid)", async ({
  page,
  baseURL,
  axe,
}) => {
  // The framing page stands for another site; the sign-in form it frames is checked elsewhere.
  axe.ignorePath("/framing-page");
  // A page that frames the sign-in form; 'none' refuses every ancestor, this origin's own too.
  await page.route(`${baseURL}/framing-page`, (route) =>
    route.fulfill({ contentType: "text/html", body: `<iframe id="victim" src="${baseURL}/login"></iframe>` }),
  );
  const framed = page.waitForResponse(`${baseURL}/login`);
  await page.goto("/framing-page");
  // The app answered the frame's request, and the browser refused to show the answer.
  expect((await framed).status()).toBe(200);
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
  await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
  await expect(frame.getByRole("button", { name: "Sign in" })).toHaveCount(0);
});

test("signing in, a streaming chat with a form, the inbox and admin run without a CSP violation", async ({
  browser,
  createUser,
}) => {
  const context = await browser.newContext();
  await watchViolations(context);
  const page = await context.newPage();
  const user = await createUser("admin");

  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // An admin with approvals waiting lands on the inbox, else on the chat: both pages are checked.
  await expect(page).toHaveURL(/\/(chat|inbox)/);
  expect(await violationsOf(page)).toEqual([]);

  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.say("book a flight from BER to LIS");
  const card = chat.requestCard("input", /To book the flight I need/);
  await expect(card).toBeVisible();
  const form = new RequestForm(card);
  // The browser-side schema validation runs under the policy.
  await form.field("Passengers").fill("12");
  await form.submit.click();
  await expect(card.getByText("Passengers must be 9 or less.")).toBeVisible();
  await form.field("To (airport code)").fill("LIS");
  await form.field("Departure date").fill("2031-05-01");
  await form.field("Passengers").fill("2");
  await form.field("Email for the e-ticket").fill("traveller@example.com");
  await form.submit.click();
  await expect(card).toContainText("Answered");
  await expect(chat.assistantMessages().last()).toContainText("e-ticket to traveller@example.com");
  expect(await violationsOf(page)).toEqual([]);

  await chat.startNewChat();
  await chat.say("deploy v1.4 to production");
  await expect(chat.requestCard("approval")).toBeVisible();
  const inbox = new InboxPage(page);
  await inbox.goto();
  await expect(inbox.live).toHaveText("Live");
  await expect(inbox.row("Approve deploying web v1.4 to production?").first()).toBeVisible();
  expect(await violationsOf(page)).toEqual([]);

  for (const path of ["/admin/users", "/admin/runs", "/settings/connections"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await violationsOf(page), path).toEqual([]);
  }
  await context.close();
});
