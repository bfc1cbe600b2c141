import { describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import { listToolRules } from "@/lib/db/tool-rules";
import { addGroupMember, createGroup, deleteGroup } from "./manage-approver-groups";
import { saveToolRules } from "./manage-tool-rules";

// A rule's escalation ladder as the admin saves it (ADR 0093): each refusal names its field and
// changes nothing; a saved ladder reads back as written; a group a ladder adds cannot be deleted.

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

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`escalation ladders on rules, on ${provider}`, () => {
    let db: Db;
    withTestEngine((started) => ({ db } = started), provider);

    it("refuses zero, negative, unordered and too-late durations and unknown groups and people, by field", async () => {
      const admin = await newUser(db, "admin");
      const save = (escalation: unknown) =>
        saveToolRules(
          {
            actor: admin,
            input: {
              toolName: "refund",
              expected: [],
              rules: [{ condition: "true", outcome: { kind: "reviewers", escalation } }],
            },
          },
          { db, mcp },
        );
      const base = "/rules/0/outcome/escalation";
      expect(
        await refusal(
          save([
            { after: "0m", action: "remind" },
            { after: "-5m", action: "remind" },
            { after: "2h", action: { add: "nobody-here" } },
            { after: "1h", action: { add: "ghost@example.com" } },
            { after: "25h", action: "expire" },
            { after: "26h", action: "remind" },
          ]),
        ),
      ).toMatchObject({
        code: "bad_request:input",
        issues: [
          { path: `${base}/0/after`, message: "A step must come after more than zero time." },
          { path: `${base}/1/after`, message: "A step must come after more than zero time." },
          { path: `${base}/3/after`, message: expect.stringContaining("comes before the step above") },
          { path: `${base}/4/after`, message: "This step comes after the request expires." },
          { path: `${base}/5/after`, message: "This step comes after the request expires." },
          { path: `${base}/5/action`, message: expect.stringContaining("Nothing can follow") },
          { path: `${base}/2/action/add`, message: "There is no such group." },
          { path: `${base}/3/action/add`, message: "Nobody has an account with this email." },
        ],
      });
      expect(await db.toolRule.count({ where: { toolName: "refund" } })).toBe(0);
    });

    it("saves a ladder with the rule, and refuses to delete a group the ladder adds, naming the rule", async () => {
      const admin = await newUser(db, "admin");
      const lead = await newUser(db, "reviewer");
      const group = await createGroup(
        { actor: admin, input: { slug: "sre-leads", name: "SRE leads" } },
        { db },
      );
      await addGroupMember({ actor: admin, input: { groupId: group.id, email: lead.email! } }, { db });
      const escalation = [
        { after: "15m", action: "remind" as const },
        { after: "1h", action: { add: "sre-leads", required: 1 } },
        { after: "2h", action: { add: lead.email! } },
        { after: "3h", action: { decline: "Nobody could look at it in time." } },
      ];
      await saveToolRules(
        {
          actor: admin,
          input: {
            toolName: "deploy",
            expected: [],
            rules: [{ condition: "true", outcome: { kind: "reviewers", escalation } }],
          },
        },
        { db, mcp },
      );
      expect((await listToolRules({ db, toolName: "deploy" }))[0]!.outcome).toEqual({
        kind: "reviewers",
        escalation,
      });
      expect(await refusal(deleteGroup({ actor: admin, input: { id: group.id } }, { db }))).toMatchObject({
        code: "conflict:group_in_use",
        message: expect.stringContaining("deploy rule 1"),
      });
      expect(await db.approverGroup.count({ where: { slug: "sre-leads" } })).toBe(1);
    });
  });
}
