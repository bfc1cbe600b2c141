import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";

// A tool name of this run only, so the figures below are this test's own.
const tool = `insights-${Date.now() % 100_000}`;
const MINUTE = 60_000;

test("insights draw each chart with its data table and CSV, on a phone too, and refuse plain users", async ({
  signInAs,
  db,
}) => {
  test.setTimeout(120_000);
  const admin = await signInAs("admin");
  const now = Date.now();
  const thread = await db.thread.create({ data: { userId: admin.user.id, kind: "request" } });
  const rows = [
    { minutes: 10, ok: true },
    { minutes: 20, ok: true },
    { minutes: 30, ok: false },
  ];
  let index = 0;
  const request = async (status: string, askedAt: number, extra: object = {}) => {
    index += 1;
    return db.request.create({
      data: {
        requestId: `pnd-${tool}-${index}`,
        threadId: thread.id,
        ownerId: admin.user.id,
        toolCallId: `${tool}-${index}`,
        toolName: tool,
        args: {},
        kind: "approval",
        prompt: `Run ${tool} number ${index}?`,
        payload: {},
        audience: "reviewers",
        status,
        createdAt: new Date(askedAt),
        ...extra,
      },
    });
  };
  for (const row of rows) {
    // Answered in the last half hour: today's answers, read live (ADR 0099).
    const asked = now - 31 * MINUTE;
    const { id } = await request("answered", asked, { resolvedAt: new Date(asked + row.minutes * MINUTE) });
    await db.answer.create({
      data: {
        requestRowId: id,
        ok: row.ok,
        toolName: tool,
        createdAt: new Date(asked + row.minutes * MINUTE),
      },
    });
  }
  const waiting = await request("open", now - 2 * 24 * 60 * MINUTE);
  await request("expired", now - 60 * MINUTE, { expiresAt: new Date(now - 30 * MINUTE) });

  const page = admin.page;
  await page.goto("/admin/users");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Insights" }).click();
  await page.getByRole("form", { name: "Filter insights" }).getByLabel("Tool").selectOption(tool);
  await page.getByRole("form", { name: "Filter insights" }).getByLabel("Period").selectOption("7");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`days=7&tool=${tool}`));

  const panel = (name: string) => page.getByRole("region", { name });
  for (const name of ["Time to answer by tool", "Open requests by age", "Escalations and expiries per day"]) {
    await expect(
      panel(name)
        .getByRole("img", { name: `${name}, chart` })
        .locator("svg[viewBox]"),
    ).toBeVisible();
  }
  // p50 and p90 of 10, 20 and 30 minutes: the 2nd (20, its histogram bucket's end 20.1) and
  // the 3rd (the slowest, 30).
  const byTool = panel("Time to answer by tool");
  await byTool.getByText("Data table").click();
  await expect(byTool.getByRole("row").filter({ hasText: tool })).toContainText(/3\s*20\.1\s*30/);
  const rates = panel("Approve and decline rates by tool");
  await rates.getByText("Data table").click();
  await expect(rates.getByRole("row").filter({ hasText: tool })).toContainText(/3\s*2\s*1\s*66\.7/);
  await expect(panel("Slowest open requests").getByRole("link", { name: waiting.id })).toHaveAttribute(
    "href",
    `/requests/${waiting.id}`,
  );
  const csv = await page.request.get(
    (await rates.getByRole("link", { name: /as CSV/ }).getAttribute("href")) ?? "",
  );
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain(`"${tool}","3","2","1","66.7"`);
  await expectAccessible(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel("Open requests by age").locator("svg[viewBox]")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.goto("/admin/insights?days=365");
  await expect(page.getByRole("alert", { name: "Filter problems" })).toContainText(
    "Period must be 7, 30 or 90 days",
  );

  const user = await signInAs("user");
  const refused = await user.page.goto("/admin/insights");
  expect(refused?.status()).toBe(403);
});
