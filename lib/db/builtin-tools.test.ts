import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEnabledBuiltins, setBuiltinEnabled } from "./builtin-tools";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

describe.each<TestProvider>(["sqlite", "postgres"])("built-in tool switches on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const admin = async () =>
    (await database.db.user.create({ data: { email: `${randomUUID()}@example.test`, role: "admin" } })).id;
  const auditOf = (toolName: string) =>
    database.db.auditLog.findMany({
      where: { targetType: "tool", targetId: toolName },
      orderBy: { createdAt: "asc" },
      select: { actorId: true, action: true },
    });

  it("switches a tool on and off, auditing each change and nothing that changed nothing", async () => {
    const { db } = database;
    const actorId = await admin();
    expect(await listEnabledBuiltins({ db })).toEqual(new Set());
    expect(await setBuiltinEnabled({ db, toolName: "bash", enabled: true, actorId })).toEqual({
      outcome: "changed",
    });
    expect(await setBuiltinEnabled({ db, toolName: "bash", enabled: true, actorId })).toEqual({
      outcome: "unchanged",
    });
    expect(await listEnabledBuiltins({ db })).toEqual(new Set(["bash"]));
    expect(await setBuiltinEnabled({ db, toolName: "bash", enabled: false, actorId })).toEqual({
      outcome: "changed",
    });
    expect(await setBuiltinEnabled({ db, toolName: "bash", enabled: false, actorId })).toEqual({
      outcome: "unchanged",
    });
    expect(await listEnabledBuiltins({ db })).toEqual(new Set());
    expect(await auditOf("bash")).toEqual([
      { actorId, action: "tool.builtin_enabled" },
      { actorId, action: "tool.builtin_disabled" },
    ]);
  });

  it("records two admins switching the same tool on at once as one change", async () => {
    const { db } = database;
    const [first, second] = [await admin(), await admin()];
    const outcomes = await Promise.all([
      setBuiltinEnabled({ db, toolName: "write", enabled: true, actorId: first }),
      setBuiltinEnabled({ db, toolName: "write", enabled: true, actorId: second }),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["changed", "unchanged"]);
    expect(await auditOf("write")).toHaveLength(1);
  });
});
