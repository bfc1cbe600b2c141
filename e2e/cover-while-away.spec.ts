import { createHash, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { InboxPage } from "./pages/inbox-page";
import { RequestForm } from "./pages/request-form";

// Cover while away (ADR 0098): Rita, away, names Sam at /settings; an approval addressed to her
// group reaches Sam's inbox, his vote counts as hers, and the request says he answered for her.
// An admin sets someone's absence at /admin/users, a loop is refused on its field, and the
// audit's setting changes say it in words.

/** `hours` from now as a `datetime-local` value, in the browser's own zone. */
function localValue(page: Page, hours: number): Promise<string> {
  return page.evaluate((ms) => {
    const at = new Date(Date.now() + ms);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }, hours * 3_600_000);
}

/** The Away form of /settings, or the Absences form of /admin/users. */
function absenceForm(page: Page, title: string) {
  const form = page.getByRole("form", { name: title });
  return {
    form,
    user: form.getByLabel("Who is away (email)"),
    from: form.getByLabel("Away from"),
    until: form.getByLabel("Until"),
    delegate: form.getByLabel(/^Send what is addressed to (me|them) to \(email\)$/),
    save: form.getByRole("button", { name: "Save absence" }),
  };
}

test("a delegate answers while Rita is away", { tag: "@phone" }, async ({ signInAs, db, baseURL }) => {
  test.setTimeout(150_000);
  const olga = await signInAs("user", "Olga Owner");
  const rita = await signInAs("user", "Rita Away");
  const sam = await signInAs("user", "Sam Cover");
  const slug = `cover-${randomBytes(3).toString("hex")}`;
  await db.approverGroup.create({
    data: { slug, name: "Cover", members: { create: [{ userId: rita.user.id }] } },
  });

  // Rita names herself first: refused beside the delegate field, and nothing she typed is lost.
  await rita.page.goto("/settings");
  const away = absenceForm(rita.page, "Set an absence");
  await expect(away.from).not.toHaveValue("");
  const from = await away.from.inputValue();
  const until = await localValue(rita.page, 48);
  await away.until.fill(until);
  await away.delegate.fill(rita.user.email);
  await away.save.click();
  await expect(away.delegate).toHaveAttribute("aria-invalid", "true");
  await expect(away.delegate).toHaveAccessibleDescription(/cannot be the person who is away/);
  await expect(away.form.getByRole("alert")).toHaveText("Not saved: see the fields marked above.");
  await expect(away.from).toHaveValue(from);
  await expect(away.until).toHaveValue(until);
  await expect(away.delegate).toHaveValue(rita.user.email);
  await expect(away.until).not.toHaveAttribute("aria-invalid", "true");

  await away.delegate.fill(sam.user.email);
  await away.save.click();
  await expect(away.form.getByRole("status")).toHaveText("Saved.");
  const mine = rita.page.getByRole("list", { name: "Your absences" });
  await expect(mine).toContainText("Running now");
  await expect(mine).toContainText(`covered by Sam Cover (${sam.user.email})`);
  await expect(away.delegate).toHaveValue("");

  // Sam is told whom he covers for, and until when.
  await sam.page.goto("/settings");
  await expect(sam.page.getByRole("list", { name: "You are covering for" })).toContainText(
    `You are covering for Rita Away (${rita.user.email}) until`,
  );

  // A program of Olga's asks Rita's group; Rita is the member whose vote it needs.
  const token = `tnx_${randomBytes(32).toString("base64url")}`;
  await db.apiToken.create({
    data: {
      userId: olga.user.id,
      name: "cover",
      tokenHash: createHash("sha256").update(token).digest("hex"),
      prefix: token.slice(0, 10),
      scopes: "requests:write requests:read",
    },
  });
  const prompt = `Pay invoice ${randomBytes(3).toString("hex")} while Rita is away?`;
  const made = await olga.page.request.post(`${baseURL}/api/v1/requests`, {
    headers: { authorization: `Bearer ${token}` },
    data: { kind: "approval", prompt, audience: { group: slug, required: 1 } },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };

  // From here on the engine's part of cover (the delegate's inbox and vote) is what is checked.
  const inbox = new InboxPage(sam.page);
  await expect(async () => {
    await inbox.goto();
    await expect(inbox.row(prompt)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await sam.page.goto(`/requests/${id}`);
  const form = new RequestForm(sam.page.getByRole("main"));
  await form.field("Note (optional)").fill("Sam, for Rita");
  await form.approve.click();
  await form.expectReadOnly("Approved");
  await expect(sam.page.getByRole("main")).toContainText(/Sam Cover for Rita Away/);

  // The answer is Sam's, given for Rita, and her vote is the one that counted.
  await expect
    .poll(async () => (await db.request.findUniqueOrThrow({ where: { id } })).status, { timeout: 30_000 })
    .toBe("answered");
  expect(await db.answer.findUniqueOrThrow({ where: { requestRowId: id } })).toMatchObject({
    actorId: sam.user.id,
    forUserId: rita.user.id,
    ok: true,
  });
  const votes = await db.requestVote.findMany({ where: { requestRowId: id } });
  expect(votes.map((vote) => [vote.voterId, vote.castById, vote.ok])).toEqual([
    [rita.user.id, sam.user.id, true],
  ]);
  await olga.page.goto(`/requests/${id}`);
  await expect(olga.page.getByRole("main")).toContainText(/Sam Cover for Rita Away/);

  // Back early: Rita ends it, and Sam covers for nobody any more.
  await rita.page.reload();
  await mine.getByRole("button", { name: /^End now/ }).click();
  await expect(rita.page.getByText("No absences set.")).toBeVisible();
  await sam.page.goto("/settings");
  await expect(sam.page.getByRole("heading", { name: "Away" })).toBeVisible();
  await expect(sam.page.getByRole("list", { name: "You are covering for" })).toHaveCount(0);
});

test("an admin sets someone's absence, a loop is refused on its field, and the audit says it in words", async ({
  signInAs,
  createUser,
}) => {
  test.setTimeout(90_000);
  const admin = await signInAs("admin", "Ada Admin");
  const tom = await createUser("reviewer", "Tom Away");
  const vic = await createUser("reviewer", "Vic Cover");
  const page = admin.page;
  await page.goto("/admin/users");
  const away = absenceForm(page, "Set someone's absence");
  const until = await localValue(page, 24);
  await away.user.fill(tom.email);
  await away.until.fill(until);
  await away.delegate.fill(vic.email);
  await away.save.click();
  await expect(away.form.getByRole("status")).toHaveText("Saved.");
  const everyone = page.getByRole("list", { name: "Everyone's absences" });
  const toms = everyone.getByRole("listitem").filter({ hasText: tom.email });
  await expect(toms).toContainText("Running now");
  await expect(toms).toContainText(`covered by Vic Cover (${vic.email}) · set by an admin`);

  // Vic naming Tom at the same time would send each one's requests to the other.
  await away.user.fill(vic.email);
  await away.until.fill(until);
  await away.delegate.fill(tom.email);
  await away.save.click();
  await expect(away.delegate).toHaveAccessibleDescription(/\(a loop\)/);
  await expect(away.user).toHaveValue(vic.email);
  await expect(away.user).not.toHaveAttribute("aria-invalid", "true");
  // An unknown person is refused on the person's field.
  await away.user.fill("nobody-here@e2e.test");
  await away.save.click();
  await expect(away.user).toHaveAccessibleDescription("is nobody with an account here");

  await page.goto("/admin/audit?view=changes&change=absence");
  const changes = page.getByRole("table", { name: "Setting changes" });
  const row = changes.getByRole("row").filter({ hasText: "Tom Away away" });
  await expect(row).toContainText(
    /Tom Away away \d{1,2} \w{3} \d{4}, \d{2}:\d{2} – .* UTC, covered by Vic Cover\./,
  );
  await expect(row).toContainText("Ada Admin");

  await page.goto("/admin/users");
  await toms.getByRole("button", { name: /^End now/ }).click();
  await expect(toms).toHaveCount(0);
  await page.goto("/admin/audit?view=changes&change=absence");
  await expect(changes.getByRole("row").filter({ hasText: "Ended early: Tom Away away" })).toHaveCount(1);
});
