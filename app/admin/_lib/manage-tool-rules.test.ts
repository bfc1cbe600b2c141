import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { createGroup, deleteGroup } from "./manage-approver-groups";
import { saveToolRules, tryToolRules } from "./manage-tool-rules";

// The admin actions behind the rules editor and the groups page, on a real database: refusals
// are field by field and change nothing. The demo tools are enough (no MCP server).

let db: Db;
withTestEngine((started) => ({ db } = started));
const mcp = { tools: async () => [] };

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: { code: string; message: string; issues: unknown }) => ({
      code: error.code,
      message: error.message,
      issues: error.issues,
    }),
  );
}

describe("saving and trying a tool's rules", () => {
  it("refuses a syntax error, an unknown variable and a missing group by field, with the position", async () => {
    const admin = await newUser(db, "admin");
    const save = (rules: unknown) =>
      saveToolRules({ actor: admin, input: { toolName: "refund", expected: [], rules } }, { db, mcp });
    const refused = await refusal(
      save([
        { condition: "args.amount >", outcome: { kind: "reviewers" } },
        { condition: "amount > 5", outcome: { kind: "free" } },
        { condition: "true", outcome: { kind: "group", group: "nobody-here", required: 2 } },
      ]),
    );
    expect(refused).toMatchObject({
      code: "bad_request:input",
      issues: [
        {
          path: "/rules/0/condition",
          message: expect.stringMatching(/^Line 1, column 14: Unexpected token/),
        },
        { path: "/rules/1/condition", message: "Line 1, column 1: Unknown variable: amount" },
        { path: "/rules/2/outcome/group", message: "There is no such group." },
      ],
    });
    expect(await db.toolRule.count()).toBe(0);
    expect(await db.auditLog.count({ where: { action: "tool.rules_changed" } })).toBe(0);
    expect(
      await refusal(save([{ condition: "true", outcome: { kind: "owner" } }]).then(() => save([]))),
    ).toMatchObject({
      code: "conflict:rules_changed",
    });
  });

  it("tries the rules as edited on pasted arguments, and refuses arguments that are not a JSON object", async () => {
    const admin = await newUser(db, "admin");
    const rules = [
      { condition: "args.amount > 1000", outcome: { kind: "blocked" } },
      { condition: "args.amount > 100", outcome: { kind: "reviewers" } },
    ];
    const trial = (args: string) =>
      tryToolRules({ actor: admin, input: { toolName: "refund", rules, args } }, { db, mcp });
    expect(await trial('{"orderId": "1", "amount": 250}')).toEqual({
      status: "matched",
      position: 1,
      outcome: { kind: "reviewers" },
      passed: [0],
    });
    expect(await trial('{"orderId": "1"}')).toMatchObject({ status: "failed", position: 0 });
    expect(await refusal(trial("[1]"))).toMatchObject({ issues: [{ path: "/args" }] });
    expect(await refusal(trial("{oops"))).toMatchObject({ issues: [{ path: "/args" }] });
  });

  it("refuses to delete a group a rule uses and names the rule", async () => {
    const admin = await newUser(db, "admin");
    const created = await createGroup({ actor: admin, input: { slug: "ops-team", name: "Ops" } }, { db });
    expect(
      await refusal(createGroup({ actor: admin, input: { slug: "Ops Team", name: "" } }, { db })),
    ).toMatchObject({ issues: [{ path: "/slug" }, { path: "/name" }] });
    await saveToolRules(
      {
        actor: admin,
        input: {
          toolName: "deploy",
          expected: [],
          rules: [{ condition: "true", outcome: { kind: "group", group: "ops-team", required: 1 } }],
        },
      },
      { db, mcp },
    ).catch((error) => error);
    // The group has no members yet, so it cannot give one approval.
    expect(await db.toolRule.count({ where: { toolName: "deploy" } })).toBe(0);
    await db.approverGroupMember.create({ data: { groupId: created.id, userId: admin.id } });
    await saveToolRules(
      {
        actor: admin,
        input: {
          toolName: "deploy",
          expected: [],
          rules: [{ condition: "true", outcome: { kind: "group", group: "ops-team", required: 1 } }],
        },
      },
      { db, mcp },
    );
    expect(await refusal(deleteGroup({ actor: admin, input: { id: created.id } }, { db }))).toMatchObject({
      code: "conflict:group_in_use",
      message: expect.stringContaining("deploy rule 1"),
    });
    expect(await db.approverGroup.count({ where: { slug: "ops-team" } })).toBe(1);
  });

  it("is for admins only", async () => {
    const reviewer = await newUser(db, "reviewer");
    expect(
      await refusal(createGroup({ actor: reviewer, input: { slug: "x", name: "X" } }, { db })),
    ).toMatchObject({ code: "forbidden:role" });
  });
});
