import { startWebhookReceiver } from "@/lib/notify/testing/webhook-receiver";
import { expect, test } from "./fixtures";
import { ToolPoliciesPage } from "./pages/tool-policies-page";
import { WebhooksPage } from "./pages/webhooks-page";

// The admin pages' finish: tables that fit, a test event, the confirmation before a risky tool
// runs freely, setting changes in the audit, and the API reference page. Every page these
// journeys open is checked by axe (fixtures.ts).

// The demo ticket tracker's destructive tool; no other journey calls it.
const DELETE = "tickets_delete_ticket";

test("an admin's tables fit the screen, on a desktop and on a phone, with nothing cut off @phone", async ({
  signInAs,
}) => {
  const admin = await signInAs("admin");
  for (const [path, table] of [
    ["/admin/users", "Users"],
    ["/admin/webhooks", "Webhook endpoints"],
  ] as const) {
    await admin.page.goto(path);
    await expect(admin.page.getByRole("table", { name: table })).toBeVisible();
    const overflow = await admin.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${path} is wider than the screen`).toBeLessThanOrEqual(0);
  }
  // The button that used to be cut off is on screen.
  await admin.page.goto("/admin/users");
  const button = admin.page.getByRole("button", { name: /Sign out everywhere/ }).first();
  const box = (await button.boundingBox())!;
  const width = admin.page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  // Nor is anything hidden in the table's own scroll box.
  const hidden = await admin.page
    .locator(".admin-table-wrap")
    .first()
    .evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth);
  expect(hidden).toBeLessThanOrEqual(0);
});

test("an admin sends a webhook test event that is delivered signed and listed, copying the secret first", async ({
  signInAs,
  db,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const admin = await signInAs("admin");
    await admin.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const webhooks = new WebhooksPage(admin.page);
    await webhooks.goto();

    // A refused URL says why exactly once.
    await admin.page.getByLabel("URL", { exact: true }).fill("ftp://example.com/in");
    await admin.page.getByRole("button", { name: "Add endpoint" }).click();
    const alert = admin.page.getByRole("alert").filter({ hasText: "Only http and https URLs can be used." });
    await expect(alert).toBeVisible();
    expect(
      ((await alert.textContent()) ?? "").split("Only http and https URLs can be used.").length - 1,
    ).toBe(1);

    const secret = await webhooks.addEndpoint(receiver.url);
    await admin.page.getByRole("button", { name: "Copy the signing secret" }).click();
    await expect(admin.page.getByText("Copied.")).toBeVisible();
    expect(await admin.page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    await webhooks
      .endpoint(receiver.url)
      .getByRole("button", { name: `Send a test event to ${receiver.url}` })
      .click();
    await expect(webhooks.endpoint(receiver.url)).toContainText("Test event queued");
    const tests = () => receiver.received.filter((hit) => JSON.parse(hit.body).type === "webhook.test");
    await expect.poll(() => tests().length, { timeout: 20_000 }).toBe(1);
    const messageId = tests()[0]!.headers["webhook-id"] as string;
    await expect(async () => {
      await admin.page.reload();
      await expect(webhooks.delivery(messageId)).toContainText("webhook.test", { timeout: 1_000 });
      await expect(webhooks.delivery(messageId)).toContainText(/delivered/i, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  } finally {
    // Its endpoint goes with its receiver: left behind, it would take every later journey's
    // events, and another endpoint's deliveries would share their message ids.
    await db.webhookEndpoint.deleteMany({ where: { url: receiver.url } });
    await receiver.close();
  }
});

test("letting a destructive tool run freely asks first, and the change is listed among the audit's setting changes", async ({
  signInAs,
}) => {
  const admin = await signInAs("admin");
  const policies = new ToolPoliciesPage(admin.page);
  await policies.gotoWithTool(DELETE);
  const row = policies.row(DELETE);
  await row.getByLabel(`Policy for ${DELETE}`).selectOption({ label: "Runs freely" });
  await row.getByRole("button", { name: "Save" }).click();
  const dialog = admin.page.getByRole("dialog", { name: `Let ${DELETE} run without approval?` });
  await expect(dialog).toContainText("may change or delete things");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("A reviewer approves");

  await row.getByRole("button", { name: "Save" }).click();
  await dialog.getByRole("button", { name: "Let it run freely" }).click();
  await expect(row.getByRole("status")).toContainText("Saved: runs freely.");
  // Back to its default at once: other journeys share this server.
  await policies.setPolicy(DELETE, /^Default/);

  await admin.page.goto("/admin/audit");
  await admin.page
    .getByRole("navigation", { name: "What the audit lists" })
    .getByRole("link", { name: "Setting changes" })
    .click();
  const filters = admin.page.getByRole("form", { name: "Filter setting changes" });
  await filters.getByLabel("Change").selectOption({ label: "Tool policies" });
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(admin.page).toHaveURL(/view=changes&change=policy/);
  const changes = admin.page.getByRole("table", { name: "Setting changes" });
  const mine = changes.getByRole("row").filter({ hasText: DELETE }).filter({ hasText: admin.user.name });
  await expect(mine.filter({ hasText: "to runs freely." })).toHaveCount(1);

  const shortcuts = admin.page.getByRole("navigation", { name: "Date shortcuts" });
  await shortcuts.getByRole("link", { name: "Today" }).click();
  await expect(shortcuts.getByRole("link", { name: "Today" })).toHaveAttribute("aria-current", "page");
  await expect(mine.filter({ hasText: "to runs freely." })).toHaveCount(1);
  await shortcuts.getByRole("link", { name: "Yesterday" }).click();
  await expect(admin.page).toHaveURL(/change=policy&from=\d{4}-\d{2}-\d{2}&to=/);
  await expect(mine).toHaveCount(0);
});

test("the API reference renders the OpenAPI document without fetching anything from elsewhere", async ({
  signInAs,
  baseURL,
}) => {
  const user = await signInAs("user");
  const elsewhere: string[] = [];
  user.page.on("request", (request) => {
    if (!request.url().startsWith(new URL(baseURL!).origin) && !request.url().startsWith("data:"))
      elsewhere.push(request.url());
  });
  await user.page.goto("/settings/tokens");
  await user.page.getByRole("link", { name: "the API reference" }).first().click();
  await expect(user.page).toHaveURL(/\/docs\/api$/);
  await expect(user.page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  // Swagger UI lists each call with its method and path.
  await expect(user.page.locator(".opblock").filter({ hasText: "/api/v1/requests" }).first()).toBeVisible({
    timeout: 20_000,
  });
  expect(elsewhere).toEqual([]);
});
