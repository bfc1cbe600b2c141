import type { Page } from "@playwright/test";
import { startWebhookReceiver } from "@/lib/notify/testing/webhook-receiver";
import { verifyWebhook } from "@/lib/notify/webhook-signature";
import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";
import { WebhooksPage } from "./pages/webhooks-page";

const PROMPT = "Approve deploying web v1.4 to production?";

const expectNoAxeViolations = (page: Page) => expectAccessible(page, { anyImpact: true });

test("an admin registers an endpoint that receives signed events of a run, sees the deliveries and replays one", async ({
  signInAs,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    const admin = await signInAs("admin");
    const webhooks = new WebhooksPage(admin.page);
    await admin.shell.link("Admin").click();
    await admin.page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Webhooks" })
      .click();
    await expect(webhooks.endpoints).toBeVisible();
    await expectNoAxeViolations(admin.page);

    // A URL that is not http(s) is refused with the reason, and nothing is added.
    await admin.page.getByLabel("URL", { exact: true }).fill("ftp://example.com/in");
    await admin.page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(
      admin.page.getByRole("alert").filter({ hasText: "Only http and https URLs can be used." }),
    ).toBeVisible();
    await expect(webhooks.endpoint("ftp://example.com/in")).toHaveCount(0);

    const secret = await webhooks.addEndpoint(receiver.url);
    expect(secret).toMatch(/^whsec_/);
    await expect(webhooks.endpoint(receiver.url)).toContainText("Enabled");
    await expectNoAxeViolations(admin.page);
    // Shown once: after a reload the secret is nowhere on the page.
    await admin.page.reload();
    await expect(webhooks.endpoint(receiver.url)).toBeVisible();
    expect(await admin.page.content()).not.toContain(secret);

    const user = await signInAs("user");
    const chat = new ChatPage(user.page);
    await chat.startNewChat();
    await chat.say("deploy v1.4 to production");
    await expect(chat.requestCard("approval", PROMPT)).toBeVisible();

    const ofType = (type: string) =>
      receiver.received.filter((hit) => (JSON.parse(hit.body) as { type: string }).type === type);
    await expect.poll(() => ofType("request.created").length).toBe(1);
    const created = ofType("request.created")[0]!;
    const headers = {
      id: created.headers["webhook-id"] as string,
      timestamp: created.headers["webhook-timestamp"] as string,
      signature: created.headers["webhook-signature"] as string,
    };
    expect(verifyWebhook({ secret, headers, body: created.body })).toBe(true);
    const { data } = JSON.parse(created.body) as { data: { path: string; request: { prompt: string } } };
    expect(data.request.prompt).toBe(PROMPT);

    const reviewer = await signInAs("reviewer");
    const request = new RequestPage(reviewer.page);
    await reviewer.page.goto(data.path);
    await request.expectPrompt(PROMPT);
    await request.form.approve.click();
    await request.form.expectReadOnly("Approved");
    await expect.poll(() => ofType("request.answered").length).toBe(1);
    await expect.poll(() => ofType("run.finished").length).toBe(1);

    await webhooks.goto();
    const row = webhooks.delivery(headers.id);
    await expect(row).toContainText("request.created");
    await expect(row).toContainText("Delivered");
    await expect(row).toContainText("HTTP 200");
    await expectNoAxeViolations(admin.page);
    // One status at a time, in the URL: the delivered one is among the delivered, not the failed.
    await webhooks.showStatus("Failed");
    await expect(admin.page).toHaveURL(/\/admin\/webhooks\?status=failed$/);
    await expect(webhooks.delivery(headers.id)).toHaveCount(0);
    await webhooks.showStatus("Delivered");
    await expect(webhooks.delivery(headers.id)).toContainText("HTTP 200");
    await webhooks.showStatus("All");
    await row.getByRole("button", { name: `Replay ${headers.id}` }).click();
    // The replay is the same message: same id, same body, signed anew.
    await expect.poll(() => ofType("request.created").length).toBe(2);
    const replayed = ofType("request.created")[1]!;
    expect(replayed.headers["webhook-id"]).toBe(headers.id);
    expect(replayed.body).toBe(created.body);

    admin.page.once("dialog", (dialog) => void dialog.accept());
    await webhooks
      .endpoint(receiver.url)
      .getByRole("button", { name: `Remove ${receiver.url}` })
      .click();
    await expect(webhooks.endpoint(receiver.url)).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test("webhook admin is for admins only", async ({ signInAs }) => {
  const reviewer = await signInAs("reviewer");
  const response = await reviewer.page.goto("/admin/webhooks");
  expect(response?.status()).toBe(403);
  await expect(reviewer.page.getByRole("table", { name: "Webhook endpoints" })).toHaveCount(0);
});
