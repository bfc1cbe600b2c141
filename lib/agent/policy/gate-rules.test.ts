import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addApproverGroupMember, createApproverGroup } from "@/lib/db/approver-group-admin";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { listToolRules, replaceToolRules } from "@/lib/db/tool-rules";
import type { ToolRuleDraft } from "@/lib/domain/tool-rules";
import { createGateHarness, type GateHarness } from "./testing/gate-harness";

// Rules with CEL conditions in front of the harness's `tweak` tool (default: the chat's owner
// approves), on a real engine and database: what runs, who is asked, and what is refused.

const tweak = (args: Record<string, unknown>) => [[{ name: "tweak", args }]];

function suite(provider: TestProvider) {
  let database: TestDatabase;
  let gate: GateHarness;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await gate?.close();
    await database.drop();
  });
  beforeEach(async () => {
    await gate?.close();
    await database.db.toolRule.deleteMany();
    await database.db.auditLog.deleteMany();
    await database.db.approverGroupMember.deleteMany();
    await database.db.approverGroup.deleteMany();
    gate = await createGateHarness(database.db);
  });

  const setRules = async (rules: ToolRuleDraft[]) => {
    const { db } = database;
    const expected = (await listToolRules({ db, toolName: "tweak" })).map(({ condition, outcome }) => ({
      condition,
      outcome,
    }));
    const change = await replaceToolRules({
      db,
      toolName: "tweak",
      expected,
      rules,
      actorId: gate.people.admin.id,
    });
    expect(change.outcome).toBe("changed");
  };

  /** A finance group of the harness's reviewer and admin (and, when asked, the chat's owner). */
  const finance = async ({ withOwner = false } = {}) => {
    const { db } = database;
    const created = await createApproverGroup({
      db,
      slug: "finance",
      name: "Finance",
      actorId: gate.people.admin.id,
    });
    if (created.outcome !== "created") throw new Error("no group");
    const members = [gate.people.reviewer, gate.people.admin, ...(withOwner ? [gate.people.owner] : [])];
    for (const member of members)
      await addApproverGroupMember({
        db,
        groupId: created.id,
        userId: member.id,
        actorId: gate.people.admin.id,
      });
  };

  return {
    get gate() {
      return gate;
    },
    get db() {
      return database.db;
    },
    setRules,
    finance,
  };
}

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`tool rules with CEL conditions on ${provider}`, () => {
    const s = suite(provider);

    it("a matching rule addresses the approval to a group with how many approvals it needs", async () => {
      await s.finance();
      await s.setRules([
        { condition: "args.value > 1000", outcome: { kind: "group", group: "finance", required: 2 } },
        { condition: "args.value > 100", outcome: { kind: "reviewers" } },
      ]);
      const runId = await s.gate.run(tweak({ value: 2500 }));
      const row = await s.db.request.findFirstOrThrow({ where: { runId } });
      expect(row).toMatchObject({
        kind: "approval",
        audience: "group",
        audienceGroup: "finance",
        required: 2,
      });
      expect(row.data).toMatchObject({ audience: "group", audienceGroup: "finance", required: 2 });
      expect(s.gate.log).toEqual([]);
    });

    it("the first matching rule wins, and with none matching the tool's policy applies", async () => {
      await s.finance();
      await s.setRules([
        { condition: "args.value > 1000", outcome: { kind: "group", group: "finance", required: 2 } },
        { condition: "args.value > 100", outcome: { kind: "reviewers" } },
        { condition: "args.value < 0", outcome: { kind: "free" } },
      ]);
      const reviewers = await s.gate.openApproval(await s.gate.run(tweak({ value: 250 })));
      expect(reviewers.audience).toBe("reviewers");
      await s.gate.answer(reviewers.id, s.gate.people.reviewer, { ok: false, reason: "declined" });

      const owner = await s.gate.openApproval(await s.gate.run(tweak({ value: 50 })));
      expect(owner.audience).toBe("owner");
      await s.gate.answer(owner.id, s.gate.people.owner, { ok: false, reason: "declined" });

      const freeRun = await s.gate.run(tweak({ value: -1 }));
      expect(await s.db.request.count({ where: { runId: freeRun } })).toBe(0);
      expect(s.gate.log).toEqual([{ tool: "tweak", args: { value: -1 } }]);
    });

    it("conditions see the chat owner's groups and the tool; a blocked outcome never runs the call", async () => {
      await s.finance({ withOwner: true });
      await s.setRules([
        { condition: '"finance" in user.groups && tool.name == "tweak"', outcome: { kind: "blocked" } },
      ]);
      const runId = await s.gate.run(tweak({ value: 1 }));
      expect(await s.db.request.count({ where: { runId } })).toBe(0);
      expect(s.gate.log).toEqual([]);
      expect(await s.gate.finalText(runId)).toContain("blocked by an administrator's rule (rule 1)");
    });

    it("a condition that fails while a call is judged refuses the call and the audit records why", async () => {
      await s.setRules([
        { condition: "args.amount > 1000", outcome: { kind: "free" } },
        { condition: "true", outcome: { kind: "free" } },
      ]);
      const runId = await s.gate.run(tweak({ value: 5 }));
      expect(s.gate.log).toEqual([]);
      expect(await s.db.request.count({ where: { runId } })).toBe(0);
      expect(await s.gate.finalText(runId)).toContain("The call to tweak was refused");
      const entry = await s.db.auditLog.findFirstOrThrow({ where: { action: "tool.rule_failed" } });
      expect(entry).toMatchObject({ targetType: "tool", targetId: "tweak", actorId: s.gate.people.owner.id });
      expect(entry.detail).toMatchObject({
        position: 0,
        condition: "args.amount > 1000",
        error: expect.stringContaining("amount"),
        runId,
      });
    });

    it("a group rule the group cannot satisfy without the asker refuses the call (four eyes)", async () => {
      await s.finance({ withOwner: true });
      await s.setRules([{ condition: "true", outcome: { kind: "group", group: "finance", required: 3 } }]);
      const runId = await s.gate.run(tweak({ value: 5 }));
      expect(await s.db.request.count({ where: { runId } })).toBe(0);
      expect(s.gate.log).toEqual([]);
      const entry = await s.db.auditLog.findFirstOrThrow({ where: { action: "tool.rule_failed" } });
      expect(entry.detail).toMatchObject({ error: expect.stringContaining("only 2 member(s) other than") });
    });

    it("a rule change applies to the very next call", async () => {
      await s.setRules([{ condition: "args.value == 7", outcome: { kind: "free" } }]);
      await s.gate.run(tweak({ value: 7 }));
      expect(s.gate.log).toHaveLength(1);
      await s.setRules([{ condition: "args.value == 7", outcome: { kind: "blocked" } }]);
      await s.gate.run(tweak({ value: 7 }));
      expect(s.gate.log).toHaveLength(1);
    });
  });
}
