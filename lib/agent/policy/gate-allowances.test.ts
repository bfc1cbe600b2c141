import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import {
  deleteThreadToolAllowance,
  listThreadToolAllowances,
  setToolPolicyByName,
} from "@/lib/db/tool-policies";
import { createGateHarness, type GateHarness } from "./testing/gate-harness";

const tweak = (value: number) => [[{ name: "tweak", args: { value } }]];

function suite(provider: TestProvider) {
  let database: TestDatabase;
  let gate: GateHarness;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    gate = await createGateHarness(database.db);
  });
  afterAll(async () => {
    await gate.close();
    await database.drop();
  });
  return {
    get gate() {
      return gate;
    },
    get db() {
      return database.db;
    },
  };
}

describe("always allow a tool in this chat", () => {
  const s = suite("sqlite");

  it("lets later calls of the tool in that chat run without asking, until the owner revokes it", async () => {
    const { gate, db } = s;
    const { threadId, owner } = gate.people;
    const first = await gate.openApproval(await gate.run(tweak(1)));
    await gate.answer(first.id, owner, { ok: true, data: { arguments: { value: 1 }, allowInThread: true } });
    expect(await listThreadToolAllowances({ db, threadId })).toEqual([
      { toolName: "tweak", grantedById: owner.id, createdAt: expect.any(Date) },
    ]);
    const audit = await db.auditLog.findMany({ where: { targetType: "thread", targetId: threadId } });
    expect(audit.map((entry) => [entry.actorId, entry.action, entry.detail])).toEqual([
      [owner.id, "thread.tool_allowed", { tool: "tweak" }],
    ]);

    const second = await gate.run(tweak(2));
    expect(await db.request.count({ where: { runId: second } })).toBe(0);
    expect(gate.log.map((entry) => entry.args)).toEqual([{ value: 1 }, { value: 2 }]);

    // Another chat of the same owner still asks.
    const other = await db.thread.create({ data: { userId: owner.id, title: "other" } });
    expect((await gate.openApproval(await gate.run(tweak(3), other.id))).audience).toBe("owner");

    expect(await deleteThreadToolAllowance({ db, threadId, toolName: "tweak", actorId: owner.id })).toBe(
      true,
    );
    expect((await gate.openApproval(await gate.run(tweak(4)))).audience).toBe("owner");
    expect(gate.log).toHaveLength(2);
  });

  it("does not let an allowance skip a reviewer once the tool's policy asks one", async () => {
    const { gate, db } = s;
    const { threadId, owner, admin } = gate.people;
    await db.threadToolAllowance.upsert({
      where: { threadId_toolName: { threadId, toolName: "tweak" } },
      create: { threadId, toolName: "tweak", grantedById: owner.id },
      update: {},
    });
    // Close what the previous test left open, so the thread takes a new run.
    for (const open of await db.request.findMany({ where: { threadId, status: "open" } })) {
      await gate.answer(open.id, owner, { ok: false, reason: "declined" });
    }
    await setToolPolicyByName({
      db,
      toolName: "tweak",
      policy: "reviewer",
      defaultPolicy: "owner",
      actorId: admin.id,
    });
    const approval = await gate.openApproval(await gate.run(tweak(5)));
    expect(approval.audience).toBe("reviewers");
    // A reviewer's approval cannot carry "always allow": the form offers no such field.
    await expect(
      gate.answer(approval.id, gate.people.reviewer, {
        ok: true,
        data: { arguments: { value: 5 }, allowInThread: true },
      }),
    ).rejects.toMatchObject({ code: "invalid:answer" });
    await setToolPolicyByName({
      db,
      toolName: "tweak",
      policy: null,
      defaultPolicy: "owner",
      actorId: admin.id,
    });
  });
});

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`racing approvals of one gated call on ${provider}`, () => {
    const s = suite(provider);

    it("runs the tool exactly once; the losing answer is refused and changes nothing", async () => {
      const { gate, db } = s;
      const runId = await gate.run([[{ name: "wipe", args: { target: "a" } }]]);
      const approval = await gate.openApproval(runId);
      const second = {
        ...gate.people.reviewer,
        id: (await db.user.create({ data: { role: "reviewer" } })).id,
      };
      const outcomes = await Promise.allSettled([
        gate.engine.answerRequest({
          requestId: approval.id,
          actor: gate.people.reviewer,
          answer: { ok: true, data: { arguments: { target: "a" } } },
        }),
        gate.engine.answerRequest({
          requestId: approval.id,
          actor: second,
          answer: { ok: true, data: { arguments: { target: "b" } } },
        }),
        gate.engine.answerRequest({
          requestId: approval.id,
          actor: gate.people.admin,
          answer: { ok: true, data: { arguments: { target: "c" } } },
        }),
      ]);
      await gate.engine.idle();
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === "rejected") expect(outcome.reason).toMatchObject({ code: "conflict:answer" });
      }
      const stored = await db.answer.findMany({ where: { requestRowId: approval.id } });
      expect(stored).toHaveLength(1);
      expect(gate.log).toEqual([
        { tool: "wipe", args: (stored[0]!.data as { arguments: unknown }).arguments },
      ]);
      expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
    });
  });
}
