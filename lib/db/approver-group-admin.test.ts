import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  addApproverGroupMember,
  createApproverGroup,
  deleteApproverGroup,
  listApproverGroups,
  removeApproverGroupMember,
  renameApproverGroup,
} from "./approver-group-admin";
import { listGroupSlugsForUser } from "./approver-groups";
import type { DbClient } from "./db-types";
import { type People, seedPeople } from "./testing/seed-people";
import { createTestDatabase, type TestDatabase } from "./testing/test-database";
import { listToolRules, replaceToolRules } from "./tool-rules";

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`approver groups and tool rules, as admins change them, on ${provider}`, () => {
    let database: TestDatabase;
    let db: DbClient;
    let people: People;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
      db = database.db;
      people = await seedPeople(db);
    });
    afterAll(async () => {
      await database.drop();
    });
    beforeEach(async () => {
      await db.toolRule.deleteMany();
      await db.approverGroup.deleteMany();
      await db.auditLog.deleteMany();
    });

    const audit = async () =>
      (await db.auditLog.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((entry) => ({
        actorId: entry.actorId,
        action: entry.action,
        targetId: entry.targetId,
        detail: entry.detail,
      }));

    it("creates, renames, fills and empties a group, and audits every change", async () => {
      const actorId = people.admin.id;
      const created = await createApproverGroup({ db, slug: "finance", name: "Finance", actorId });
      if (created.outcome !== "created") throw new Error("not created");
      const id = created.id;
      expect(await createApproverGroup({ db, slug: "finance", name: "Other", actorId })).toEqual({
        outcome: "slug_taken",
      });
      expect(await renameApproverGroup({ db, id, name: "Finance team", actorId })).toEqual({
        outcome: "changed",
      });
      expect(await renameApproverGroup({ db, id, name: "Finance team", actorId })).toEqual({
        outcome: "unchanged",
      });
      const userId = people.reviewer.id;
      expect(await addApproverGroupMember({ db, groupId: id, userId, actorId })).toEqual({
        outcome: "changed",
      });
      expect(await addApproverGroupMember({ db, groupId: id, userId, actorId })).toEqual({
        outcome: "unchanged",
      });
      expect(await addApproverGroupMember({ db, groupId: id, userId: "nobody", actorId })).toEqual({
        outcome: "user_not_found",
      });
      expect(await listGroupSlugsForUser({ db, userId })).toEqual(["finance"]);
      expect(await removeApproverGroupMember({ db, groupId: id, userId, actorId })).toEqual({
        outcome: "changed",
      });
      expect(await listGroupSlugsForUser({ db, userId })).toEqual([]);

      expect(await audit()).toEqual([
        {
          actorId,
          action: "approver_group.created",
          targetId: id,
          detail: { slug: "finance", name: "Finance" },
        },
        {
          actorId,
          action: "approver_group.renamed",
          targetId: id,
          detail: { slug: "finance", from: "Finance", to: "Finance team" },
        },
        {
          actorId,
          action: "approver_group.member_added",
          targetId: id,
          detail: { slug: "finance", userId, email: expect.any(String) },
        },
        {
          actorId,
          action: "approver_group.member_removed",
          targetId: id,
          detail: { slug: "finance", userId, email: expect.any(String) },
        },
      ]);
    });

    it("refuses to delete a group a rule uses, naming the rules, and deletes it once none does", async () => {
      const actorId = people.admin.id;
      const created = await createApproverGroup({ db, slug: "finance", name: "Finance", actorId });
      if (created.outcome !== "created") throw new Error("not created");
      const groupRule = { kind: "group" as const, group: "finance", required: 2 };
      await replaceToolRules({
        db,
        toolName: "refund",
        expected: [],
        rules: [
          { condition: "args.amount > 100", outcome: { kind: "reviewers" } },
          { condition: "args.amount > 1000", outcome: groupRule },
        ],
        actorId,
      });
      await replaceToolRules({
        db,
        toolName: "deploy",
        expected: [],
        rules: [{ condition: "true", outcome: groupRule }],
        actorId,
      });
      expect(await deleteApproverGroup({ db, id: created.id, actorId })).toEqual({
        outcome: "in_use",
        rules: ["deploy rule 1", "refund rule 2"],
      });
      expect((await listApproverGroups({ db }))[0]).toMatchObject({
        slug: "finance",
        usedBy: ["deploy rule 1", "refund rule 2"],
      });
      await replaceToolRules({
        db,
        toolName: "deploy",
        expected: [{ condition: "true", outcome: groupRule }],
        rules: [],
        actorId,
      });
      await replaceToolRules({
        db,
        toolName: "refund",
        expected: (await listToolRules({ db, toolName: "refund" })).map(({ condition, outcome }) => ({
          condition,
          outcome,
        })),
        rules: [{ condition: "args.amount > 100", outcome: { kind: "reviewers" } }],
        actorId,
      });
      expect(await deleteApproverGroup({ db, id: created.id, actorId })).toEqual({ outcome: "deleted" });
      expect(await listApproverGroups({ db })).toEqual([]);
      expect((await audit()).at(-1)).toMatchObject({
        action: "approver_group.deleted",
        detail: { slug: "finance" },
      });
    });

    it("replaces a tool's rules only from the list the admin edited, audits old → new, and refuses an unknown group", async () => {
      const actorId = people.admin.id;
      const first = [{ condition: "args.amount > 100", outcome: { kind: "reviewers" as const } }];
      expect(
        await replaceToolRules({ db, toolName: "refund", expected: [], rules: first, actorId }),
      ).toMatchObject({
        outcome: "changed",
      });
      // A second admin still looking at the empty list is refused and changes nothing.
      expect(
        await replaceToolRules({
          db,
          toolName: "refund",
          expected: [],
          rules: [],
          actorId: people.reviewer.id,
        }),
      ).toEqual({ outcome: "stale" });
      expect(
        await replaceToolRules({
          db,
          toolName: "refund",
          expected: first,
          rules: [{ condition: "true", outcome: { kind: "group", group: "ghosts", required: 1 } }],
          actorId,
        }),
      ).toEqual({ outcome: "unknown_group", index: 0, slug: "ghosts" });
      const second = [{ condition: "args.amount > 1000", outcome: { kind: "blocked" as const } }, ...first];
      expect(
        await replaceToolRules({ db, toolName: "refund", expected: first, rules: second, actorId }),
      ).toMatchObject({
        outcome: "changed",
      });
      expect(
        (await listToolRules({ db, toolName: "refund" })).map((rule) => [rule.position, rule.condition]),
      ).toEqual([
        [0, "args.amount > 1000"],
        [1, "args.amount > 100"],
      ]);
      expect(await audit()).toEqual([
        { actorId, action: "tool.rules_changed", targetId: "refund", detail: { from: [], to: first } },
        { actorId, action: "tool.rules_changed", targetId: "refund", detail: { from: first, to: second } },
      ]);
    });
  });
}
