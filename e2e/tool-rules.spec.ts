import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { AdminGroupsPage, ToolRulesPage } from "./pages/tool-rules-page";

// Rules and groups as an admin manages them. Each project edits its own tool, and the rule's
// condition holds only for an argument no real call has, so journeys running meanwhile are
// judged exactly as before.

const toolFor = (project: string) => (project === "phone" ? "deploy" : "book_flight");

test.describe("tool rules and approver groups", () => {
  test.afterEach(async ({ db }, testInfo) => {
    await db.toolRule.deleteMany({ where: { toolName: toolFor(testInfo.project.name) } });
  });

  test("@phone an admin adds a rule with a condition and checks it in the try-it box", async ({
    signInAs,
    db,
  }, testInfo) => {
    // The tools page lists every tool with its policy and rules; each save and trial is a round trip.
    test.setTimeout(180_000);
    const toolName = toolFor(testInfo.project.name);
    const admin = await signInAs("admin");
    const rules = new ToolRulesPage(admin.page);
    await rules.goto();
    const tool = await rules.open(toolName);

    await tool.getByRole("button", { name: `Add a rule to ${toolName}` }).click();
    const condition = tool.getByLabel(`Condition of rule 1 of ${toolName} (CEL)`);
    // A syntax error is refused where it stands, and nothing is saved.
    await condition.fill("has(args.priority) && args.priority ==");
    await tool.getByRole("button", { name: `Save rules of ${toolName}` }).click();
    await expect(tool.getByRole("alert").first()).toContainText("Line 1, column 39");
    expect(await db.toolRule.count({ where: { toolName } })).toBe(0);

    await condition.fill('has(args.priority) && args.priority == "urgent"');
    await tool.getByLabel(`Outcome of rule 1 of ${toolName}`).selectOption({ label: "Blocked" });
    await tool.getByRole("button", { name: `Save rules of ${toolName}` }).click();
    await expect(tool.getByRole("status").first()).toContainText("Saved 1 rule.");
    await expect(tool.locator("summary")).toContainText("1 rule");
    expect(
      await db.auditLog.count({ where: { action: "tool.rules_changed", targetId: toolName } }),
    ).toBeGreaterThan(0);

    await expect(await rules.tryArgs(tool, toolName, '{"priority": "urgent"}')).toContainText(
      'Rule 1 takes it: has(args.priority) && args.priority == "urgent" holds, so blocked.',
    );
    await expect(await rules.tryArgs(tool, toolName, '{"priority": "low"}')).toContainText(
      "No rule holds, so the tool's policy applies",
    );
    await expect(await rules.tryArgs(tool, toolName, "[1, 2]")).toBeEmpty();
    await expect(tool.getByText("Paste the arguments as one JSON object").first()).toBeVisible();
  });

  test("@phone an admin creates a group, adds a member, and cannot delete a group a rule uses", async ({
    signInAs,
    db,
  }) => {
    test.setTimeout(180_000);
    const admin = await signInAs("admin");
    const groups = new AdminGroupsPage(admin.page);
    await groups.goto();

    await groups.create("Not A Slug", "Bad");
    await expect(admin.page.getByText("Lower-case letters, digits and -")).toBeVisible();

    const slug = `e2e-${randomBytes(3).toString("hex")}`;
    await groups.create(slug, "Night shift");
    const group = groups.group(slug);
    await expect(group).toContainText("Night shift");
    await group.getByLabel(`Add a member to ${slug} (email)`).fill("rita@example.com");
    await group.getByRole("button", { name: "Add member" }).click();
    await expect(group.getByRole("list", { name: `Members of ${slug}` })).toContainText("rita@example.com");
    const stored = await db.approverGroup.findUniqueOrThrow({ where: { slug } });
    expect(
      (await db.auditLog.findMany({ where: { targetId: stored.id }, orderBy: { createdAt: "asc" } })).map(
        (entry) => entry.action,
      ),
    ).toEqual(["approver_group.created", "approver_group.member_added"]);

    // The demo's finance group is used by the refund tool's rules.
    const finance = groups.group("finance");
    await finance.getByRole("button", { name: "Delete finance" }).click();
    await expect(finance.getByRole("alert")).toContainText("refund rule 1");
    await expect(finance).toBeVisible();

    await group.getByRole("button", { name: `Delete ${slug}` }).click();
    await expect(group).toHaveCount(0);
  });
});
