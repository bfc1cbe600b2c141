import { randomBytes } from "node:crypto";
import type { Locator } from "@playwright/test";
import { expectAccessible } from "./expect-accessible";
import { expect, test } from "./fixtures";
import { ToolRulesPage } from "./pages/tool-rules-page";
import { unreachable } from "./unreachable";

// An admin gives a rule an escalation ladder (ADR 0093) in the rules editor: a reminder, a group
// added, a decline with its reason. The rule's condition holds for no real call. Each project
// edits its own tool, which no other journey edits: the desktop an app's tool, the phone an MCP
// client's tool name (the same editor), so journeys running meanwhile are judged as before.

const toolFor = (project: string) => (project === "phone" ? "ladder_e2e_phone" : "get_balance");

test.afterEach(async ({ db }, testInfo) => {
  await db.toolRule.deleteMany({ where: { toolName: toolFor(testInfo.project.name) } });
});

/** Fills the fields of the step named `step` ("step 2 of rule 1 of …") as given; it must exist. */
async function fillStep(
  tool: Locator,
  step: string,
  {
    after,
    action,
    add,
    required,
    reason,
  }: { after: string; action?: string; add?: string; required?: string; reason?: string },
) {
  await tool.getByLabel(`After (${step})`).fill(after);
  if (action) await tool.getByLabel(`Action of ${step}`).selectOption({ label: action });
  if (add !== undefined) await tool.getByLabel(`Group slug or email (${step})`).fill(add);
  if (required !== undefined) await tool.getByLabel(`Approvals needed (${step})`).fill(required);
  if (reason !== undefined) await tool.getByLabel(`Reason (${step})`).fill(reason);
}

test(
  "an admin adds an escalation ladder to a rule, is told which field of a bad step is wrong, and removes a step",
  {
    tag: "@phone",
  },
  async ({ signInAs, db }, testInfo) => {
    test.setTimeout(180_000);
    const toolName = toolFor(testInfo.project.name);
    const clientTool = toolName === "get_balance" ? undefined : toolName;
    const rule = `rule 1 of ${toolName}`;
    const step = (n: number) => `step ${n} of ${rule}`;
    const slug = `ladder-${randomBytes(3).toString("hex")}`;
    const leads = await Promise.all(
      ["a", "b"].map((n) => db.user.create({ data: { role: "user", email: `${slug}-${n}@example.test` } })),
    );
    await db.approverGroup.create({
      data: { slug, name: "Ladder leads", members: { create: leads.map((lead) => ({ userId: lead.id })) } },
    });
    const admin = await signInAs("admin");
    const rules = new ToolRulesPage(admin.page);
    await rules.goto(clientTool);
    let tool = await rules.open(toolName);
    const save = () => tool.getByRole("button", { name: `Save rules of ${toolName}` }).click();

    await tool.getByRole("button", { name: `Add a rule to ${toolName}` }).click();
    await tool
      .getByLabel(`Condition of ${rule} (CEL)`)
      .fill('has(args.ladder_e2e) && args.ladder_e2e == "never"');
    await expect(tool.getByLabel(`Outcome of ${rule}`)).toHaveValue("reviewers");
    const addStep = tool.getByRole("button", { name: `Add an escalation step to ${rule}` });
    for (let n = 0; n < 3; n += 1) await addStep.click();
    await fillStep(tool, step(1), { after: "15m" });
    await fillStep(tool, step(2), { after: "1h", action: "Add a group or person", add: slug, required: "2" });
    await fillStep(tool, step(3), { after: "2h", action: "Decline it", reason: "Nobody answered in time." });
    // Every step's fields and buttons are on screen and, on a phone, a finger high.
    expect(await unreachable(tool)).toEqual([]);
    await save();
    await expect(tool.getByRole("status").first()).toContainText("Saved 1 rule.");
    const ladder = [
      { after: "15m", action: "remind" },
      { after: "1h", action: { add: slug, required: 2 } },
      { after: "2h", action: { decline: "Nobody answered in time." } },
    ];
    const stored = () =>
      db.toolRule.findMany({ where: { toolName }, select: { outcome: true, escalation: true } });
    expect(await stored()).toEqual([{ outcome: "reviewers", escalation: ladder }]);

    // After a reload the editor shows the ladder as saved.
    await admin.page.reload();
    tool = await rules.open(toolName);
    await expect(tool.getByLabel(`After (${step(1)})`)).toHaveValue("15m");
    await expect(tool.getByLabel(`Action of ${step(1)}`)).toHaveValue("remind");
    await expect(tool.getByLabel(`Group slug or email (${step(2)})`)).toHaveValue(slug);
    await expect(tool.getByLabel(`Approvals needed (${step(2)})`)).toHaveValue("2");
    await expect(tool.getByLabel(`Reason (${step(3)})`)).toHaveValue("Nobody answered in time.");

    // Bad steps are refused, each where it stands and naming its field; nothing is saved.
    await fillStep(tool, step(1), { after: "0m" });
    await fillStep(tool, step(2), { after: "1h", add: "no-such-group" });
    await fillStep(tool, step(3), { after: "2d" });
    await save();
    const alerts = tool.getByRole("alert");
    await expect(
      alerts.filter({ hasText: `After (${step(1)}): A step must come after more than zero time.` }),
    ).toHaveCount(1);
    await expect(
      alerts.filter({ hasText: `Group slug or email (${step(2)}): There is no such group.` }),
    ).toHaveCount(1);
    await expect(
      alerts.filter({ hasText: `After (${step(3)}): This step comes after the request expires.` }),
    ).toHaveCount(1);
    await expect(tool.getByLabel(`After (${step(1)})`)).toHaveAttribute("aria-invalid", "true");
    await expect(tool.getByLabel(`Group slug or email (${step(2)})`)).toHaveAttribute("aria-invalid", "true");
    await expect(tool.getByLabel(`After (${step(3)})`)).toHaveAttribute("aria-invalid", "true");
    await expect(tool.getByLabel(`After (${step(2)})`)).toHaveAttribute("aria-invalid", "false");
    expect(await unreachable(tool)).toEqual([]);
    await expectAccessible(admin.page);
    expect(await stored()).toEqual([{ outcome: "reviewers", escalation: ladder }]);

    // Put right, less the group step, it saves; the reload shows the two steps left.
    await fillStep(tool, step(1), { after: "15m" });
    await fillStep(tool, step(3), { after: "2h" });
    await tool.getByRole("button", { name: `Remove ${step(2)}` }).click();
    await expect(tool.getByLabel(`Reason (${step(2)})`)).toHaveValue("Nobody answered in time.");
    await save();
    await expect(tool.getByRole("status").first()).toContainText("Saved 1 rule.");
    await expect(alerts).toHaveCount(0);
    expect(await stored()).toEqual([{ outcome: "reviewers", escalation: [ladder[0], ladder[2]] }]);
    await admin.page.reload();
    tool = await rules.open(toolName);
    await expect(tool.getByLabel(`After (${step(2)})`)).toHaveValue("2h");
    await expect(tool.getByLabel(`After (${step(3)})`)).toHaveCount(0);
    await expect(tool.getByLabel(`Group slug or email (${step(1)})`)).toHaveCount(0);
  },
);
