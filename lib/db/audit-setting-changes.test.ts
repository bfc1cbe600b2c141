import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endAbsence, setAbsence } from "./absences";
import { createApproverGroup } from "./approver-group-admin";
import { listSettingChanges } from "./audit-setting-changes";
import { setBuiltinEnabled } from "./builtin-tools";
import type { Db } from "./sql/client";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";
import { setToolPolicyByName } from "./tool-policies";

// The audit page's list of setting changes reads what each change wrote to the audit log with
// itself: no second record is kept.

describe.each<TestProvider>(["sqlite", "postgres"])("setting changes on %s", (provider) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    db = database.db as Db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("lists policy, group and built-in changes newest first, by kind and by date, and no answers", async () => {
    const admin = await db.user.create({ data: { email: "ada@example.test", name: "Ada", role: "admin" } });
    const page = { page: 1, pageSize: 25 };
    await setToolPolicyByName({
      db,
      toolName: "deploy",
      policy: "owner",
      defaultPolicy: "reviewer",
      actorId: admin.id,
    });
    await createApproverGroup({ db, slug: "finance", name: "Finance", actorId: admin.id });
    await setBuiltinEnabled({ db, toolName: "webfetch", enabled: true, actorId: admin.id });
    // Not a setting change: never listed.
    await db.auditLog.create({
      data: { actorId: admin.id, action: "request.answered", targetType: "request", targetId: "r1" },
    });

    const all = await listSettingChanges({ db, query: page });
    expect(all.total).toBe(3);
    expect(all.rows.map((row) => [row.kind, row.targetId === "deploy" ? "deploy" : row.kind])).toEqual([
      ["builtin", "builtin"],
      ["group", "group"],
      ["policy", "deploy"],
    ]);
    expect(all.rows[2]).toMatchObject({
      actor: { id: admin.id, name: "Ada" },
      action: "tool.policy_changed",
      detail: { from: "default", to: "owner" },
    });

    const groups = await listSettingChanges({ db, query: { ...page, kind: "group" } });
    expect(groups.rows).toMatchObject([{ action: "approver_group.created", detail: { slug: "finance" } }]);
    expect(groups.total).toBe(1);

    const tomorrow = new Date(Date.now() + 86_400_000);
    expect((await listSettingChanges({ db, query: { ...page, from: tomorrow } })).total).toBe(0);
    expect((await listSettingChanges({ db, query: { ...page, before: tomorrow } })).total).toBe(3);
  });

  it("lists absences set and ended, naming the person away and who covers, and who set it", async () => {
    const admin = await db.user.create({ data: { email: "root@example.test", name: "Root", role: "admin" } });
    const rita = await db.user.create({
      data: { email: "rita@example.test", name: "Rita", role: "reviewer" },
    });
    const sam = await db.user.create({ data: { email: "sam@example.test", role: "reviewer" } });
    const now = new Date();
    const set = await setAbsence({
      db,
      userId: rita.id,
      delegateEmail: sam.email!,
      startsAt: new Date("2099-12-09T09:00:00Z"),
      endsAt: new Date("2099-12-12T17:00:00Z"),
      actorId: admin.id,
      now,
    });
    await endAbsence({ db, id: set.id, userId: rita.id, actorId: rita.id, now });
    const { rows, total } = await listSettingChanges({
      db,
      query: { page: 1, pageSize: 25, kind: "absence" },
    });
    expect(total).toBe(2);
    expect(rows.map((row) => [row.action, row.actor?.name, row.names])).toEqual([
      ["absence.ended", "Rita", { [rita.id]: "Rita", [sam.id]: "sam@example.test" }],
      ["absence.set", "Root", { [rita.id]: "Rita", [sam.id]: "sam@example.test" }],
    ]);
  });
});
