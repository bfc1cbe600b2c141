import type { Page } from "@playwright/test";
import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ChatPage } from "./pages/chat-page";
import { RequestPage } from "./pages/request-page";

// Email through the project's mail catcher, which the harness runs next to the app: the
// reviewer's mail links to the request, the link opens it for them and for nobody who may not
// answer it, and a reviewer who chose "Off" at /settings gets none. The asker, who chose to hear
// of decisions, is mailed that the reviewer approved it.

const PROMPT = "Approve deploying web v1.4 to production?";

const expectNoAxeViolations = (page: Page) => expectAccessible(page, { anyImpact: true });

test("a reviewer's email about a new approval opens it for them, not for someone else; Off sends none", async ({
  signInAs,
}) => {
  const quiet = await signInAs("reviewer");
  await quiet.page.goto("/settings");
  await expectNoAxeViolations(quiet.page);
  await quiet.page.getByRole("radio", { name: /^Off/ }).check();
  await quiet.page.getByRole("button", { name: "Save email setting" }).click();
  await expect(quiet.page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await quiet.page.reload();
  await expect(quiet.page.getByRole("radio", { name: /^Off/ })).toBeChecked();

  const reviewer = await signInAs("reviewer");
  const user = await signInAs("user");
  await user.page.goto("/settings");
  await user.page.getByRole("checkbox", { name: "E-mail me when a request I asked is decided" }).check();
  await user.page.getByRole("button", { name: "Save email setting" }).click();
  await expect(user.page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await user.page.reload();
  await expect(
    user.page.getByRole("checkbox", { name: "E-mail me when a request I asked is decided" }),
  ).toBeChecked();
  const chat = new ChatPage(user.page);
  await chat.startNewChat();
  await chat.say("deploy v1.4 to production");
  await expect(chat.requestCard("approval", PROMPT)).toBeVisible();

  // The demo page lists what the catcher caught; the reviewer finds their mail there (after the
  // mail for every reviewer of every earlier approval of the run, which may be queued ahead).
  const mail = reviewer.page.getByRole("listitem", {
    name: `Mail to ${reviewer.user.email}: Approval needed: “${PROMPT}”`,
  });
  await expect(async () => {
    await reviewer.page.goto("/demo/mail");
    await expect(mail).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expectNoAxeViolations(reviewer.page);
  const link = mail.getByRole("link", { name: /\/requests\// });
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^http:\/\/localhost:\d+\/requests\/[^/]+$/);
  await link.click();
  await new RequestPage(reviewer.page).expectPrompt(PROMPT);
  await expect(new RequestPage(reviewer.page).form.approve).toBeVisible();
  await new RequestPage(reviewer.page).form.approve.click();
  await new RequestPage(reviewer.page).form.expectReadOnly("Approved");

  // The same link, opened by someone who may not answer the request, shows nothing of it:
  // they are told it does not exist, as for any unknown id.
  const stranger = await signInAs("user");
  const response = await stranger.page.goto(href!);
  expect(response?.status()).toBe(404);
  await expect(stranger.page.getByText(PROMPT)).toHaveCount(0);

  // Each person's /demo/mail lists the mail addressed to them only: the reviewer who chose "Off"
  // finds none about it, and the reviewer finds none of anyone else's.
  await quiet.page.goto("/demo/mail");
  await expect(quiet.page.getByRole("listitem").filter({ hasText: PROMPT })).toHaveCount(0);
  await reviewer.page.goto("/demo/mail");
  await expect(reviewer.page.getByRole("listitem", { name: /^Mail to / })).not.toHaveCount(0);
  for (const name of await reviewer.page
    .getByRole("listitem", { name: /^Mail to / })
    .evaluateAll((items) => items.map((item) => item.getAttribute("aria-label") ?? ""))) {
    expect(name.startsWith(`Mail to ${reviewer.user.email}:`)).toBe(true);
  }
  await expect(mail).toHaveCount(1);

  // The asker hears that it was decided, and by whom; once.
  const decided = user.page.getByRole("listitem", {
    name: `Mail to ${user.user.email}: Your request was approved: “${PROMPT}”`,
  });
  await expect(async () => {
    await user.page.goto("/demo/mail");
    await expect(decided).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(decided).toContainText(`was approved by ${reviewer.user.name}`);
});
