// Takes the README's screenshots from the real app: a chat with a parked production deploy, a
// reviewer's inbox on a desktop and on a phone, the decision on a phone, and the API reference.
// Run it against a server started with the demo accounts (for example
// `npm run quickstart`): `node scripts/take-screenshots.mjs http://localhost:3000`. It creates a fresh chat
// for Alice each time; nothing else is changed.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const base = process.argv[2] || process.env.TOOLNEXUS_APP_URL || "http://localhost:3000";
const out = path.resolve(import.meta.dirname, "../docs/screenshots");
const password = "toolnexus-demo";
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});

const DESKTOP = { viewport: { width: 1200, height: 760 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

async function signIn(email, device = DESKTOP) {
  const context = await browser.newContext({ ...device, colorScheme: "light" });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Reviewers with something waiting land on their inbox, everyone else on the chat.
  await page.waitForURL(/\/(chat|inbox)/);
  return page;
}

async function chatUntilParked(page, message) {
  await page.goto(`${base}/chat`);
  await page.getByRole("button", { name: "New chat" }).click();
  await page.waitForURL(/\/chat\/[^/]+$/);
  await page.getByLabel("Message", { exact: true }).fill(message);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByText("Paused until the request above is answered.").last().waitFor();
}

try {
  const alice = await signIn("alice@example.com");
  // A second parked approval, so the inbox shows more than one row.
  await chatUntilParked(alice, "refund order 1234 for $250 because it arrived broken");
  await chatUntilParked(alice, "deploy v1.4 to production");
  await alice.screenshot({ path: path.join(out, "chat.png") });

  const rita = await signIn("rita@example.com");
  await rita.goto(`${base}/inbox`);
  await rita.getByRole("list", { name: "Requests" }).waitFor();
  // The inbox follows changes live once its stream is open; show it in that state.
  await rita
    .getByRole("status")
    .filter({ hasText: /^Live$/ })
    .waitFor();
  await rita.screenshot({ path: path.join(out, "inbox.png") });

  const onPhone = await signIn("rita@example.com", PHONE);
  await onPhone.goto(`${base}/inbox`);
  await onPhone.getByRole("list", { name: "Requests" }).waitFor();
  await onPhone.screenshot({ path: path.join(out, "inbox-phone.png") });
  // The newest request's own page: the decision as a reviewer meets it from a link in a mail.
  await onPhone.getByRole("list", { name: "Requests" }).getByRole("link").first().click();
  await onPhone
    .getByRole("button", { name: /^Approve/ })
    .first()
    .waitFor();
  await onPhone.screenshot({ path: path.join(out, "decision-phone.png") });

  await rita.goto(`${base}/docs/api`);
  await rita.getByText("/api/v1/requests", { exact: true }).first().waitFor();
  await rita.screenshot({ path: path.join(out, "api-reference.png") });
  console.log(`screenshots written to ${out}`);
} finally {
  await browser.close();
}
