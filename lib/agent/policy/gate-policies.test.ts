import { defineTool, pending } from "toolnexus";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { setToolPolicyByName } from "@/lib/db/tool-policies";
import type { ToolPolicy } from "@/lib/domain/tool-policy";
import { createGateHarness, type GateHarness } from "./testing/gate-harness";

let database: TestDatabase;
let gate: GateHarness;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
});
afterAll(async () => {
  await database.drop();
});
beforeEach(async () => {
  await gate?.close();
  await database.db.toolPolicy.deleteMany();
  gate = await createGateHarness(database.db);
});

const call = (name: string, args: Record<string, unknown> = {}) => [[{ name, args }]];

async function setPolicy(toolName: string, policy: ToolPolicy | null) {
  const change = await setToolPolicyByName({
    db: database.db,
    toolName,
    policy,
    defaultPolicy: "owner",
    actorId: gate.people.admin.id,
  });
  expect(change.outcome).toBe("changed");
}

describe("the approval gate's defaults from annotations", () => {
  it("runs a read-only tool at once", async () => {
    const runId = await gate.run(call("lookup", { query: "x" }));
    expect(gate.log).toEqual([{ tool: "lookup", args: { query: "x" } }]);
    expect(await gate.finalText(runId)).toContain('lookup ran with {"query":"x"}');
  });

  it("parks a destructive tool for a reviewer, and runs it only once approved", async () => {
    const runId = await gate.run(call("wipe", { target: "cache" }));
    const approval = await gate.openApproval(runId);
    expect(approval.audience).toBe("reviewers");
    expect(approval.data).toMatchObject({ tool: "wipe", arguments: { target: "cache" } });
    expect(approval.data.schema).not.toHaveProperty("properties.allowInThread");
    expect(gate.log).toEqual([]);
    // The chat's owner cannot wave it through.
    await expect(gate.answer(approval.id, gate.people.owner, { ok: true })).rejects.toMatchObject({
      code: "forbidden:request",
    });
    await gate.answer(approval.id, gate.people.reviewer, {
      ok: true,
      data: { arguments: { target: "cache" } },
    });
    expect(gate.log).toEqual([{ tool: "wipe", args: { target: "cache" } }]);
  });

  it("asks the chat's owner about any other tool, offering to allow it for the chat", async () => {
    const runId = await gate.run(call("tweak", { value: 1 }));
    const approval = await gate.openApproval(runId);
    expect(approval.audience).toBe("owner");
    expect(approval.data.schema).toHaveProperty("properties.allowInThread");
    // A reviewer may not answer the owner's approval: to them it is one that does not exist.
    await expect(gate.answer(approval.id, gate.people.reviewer, { ok: true })).rejects.toMatchObject({
      code: "not_found:request",
    });
    expect(gate.log).toEqual([]);
    await gate.answer(approval.id, gate.people.owner, { ok: true, data: { arguments: { value: 1 } } });
    expect(gate.log).toEqual([{ tool: "tweak", args: { value: 1 } }]);
  });
});

describe("an admin's policy", () => {
  it("runs freely: a destructive tool runs without asking", async () => {
    await setPolicy("wipe", "free");
    await gate.run(call("wipe", { target: "logs" }));
    expect(gate.log).toEqual([{ tool: "wipe", args: { target: "logs" } }]);
    expect(await database.db.request.count({ where: { toolName: "wipe", status: "open" } })).toBe(0);
  });

  it("the owner approves / a reviewer approves: even a read-only tool asks", async () => {
    await setPolicy("lookup", "owner");
    const owner = await gate.openApproval(await gate.run(call("lookup", { query: "a" })));
    expect(owner.audience).toBe("owner");
    await setPolicy("lookup", "reviewer");
    const reviewer = await gate.openApproval(
      await gate.run(call("lookup", { query: "b" }), await newThread()),
    );
    expect(reviewer.audience).toBe("reviewers");
    expect(gate.log).toEqual([]);
  });

  it("blocked: the model is never offered the tool, and a call to it anyway is refused", async () => {
    await setPolicy("tweak", "blocked");
    const runId = await gate.run(call("tweak", { value: 3 }));
    expect(gate.offered.length).toBeGreaterThan(0);
    for (const names of gate.offered) expect(names).toEqual(["lookup", "wipe"]);
    expect(gate.log).toEqual([]);
    expect(await gate.finalText(runId)).toContain("tweak is blocked by an administrator");
    expect(await database.db.request.count({ where: { runId } })).toBe(0);
  });

  it("back to the default: the annotations decide again", async () => {
    await setPolicy("wipe", "free");
    await setPolicy("wipe", null);
    const approval = await gate.openApproval(await gate.run(call("wipe", { target: "x" })));
    expect(approval.audience).toBe("reviewers");
  });
});

describe("approving and declining", () => {
  it("runs the call with the arguments as the approver edited them, and tells the model", async () => {
    const runId = await gate.run(call("wipe", { target: "everything" }));
    const approval = await gate.openApproval(runId);
    await gate.answer(approval.id, gate.people.reviewer, {
      ok: true,
      data: { arguments: { target: "tmp" }, note: "only tmp" },
    });
    expect(gate.log).toEqual([{ tool: "wipe", args: { target: "tmp" } }]);
    const text = await gate.finalText(runId);
    expect(text).toContain('The reviewer changed target from "everything" to "tmp".');
    expect(text).toContain('Reviewer\'s note: "only tmp".');
  });

  it("refuses edited arguments that break the tool's schema, and nothing runs", async () => {
    const approval = await gate.openApproval(await gate.run(call("tweak", { value: 1 })));
    await expect(
      gate.answer(approval.id, gate.people.owner, { ok: true, data: { arguments: { value: "lots" } } }),
    ).rejects.toMatchObject({ code: "invalid:answer" });
    expect(gate.log).toEqual([]);
    expect((await database.db.request.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe("open");
  });

  it("never runs a declined call; the model gets the decline", async () => {
    const runId = await gate.run(call("wipe", { target: "prod" }));
    const approval = await gate.openApproval(runId);
    await gate.answer(approval.id, gate.people.reviewer, { ok: false, reason: "declined" });
    expect(gate.log).toEqual([]);
    expect((await database.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("done");
    expect(await gate.finalText(runId)).toContain("declined");
  });
});

describe("a policy changed mid-run", () => {
  it("applies to the run's next call, without a restart", async () => {
    // The run parks on its first call; meanwhile an admin frees one tool and blocks another.
    const runId = await gate.run([
      [{ name: "tweak", args: { value: 1 } }],
      [{ name: "wipe", args: { target: "a" } }],
      [{ name: "lookup", args: { query: "q" } }],
    ]);
    const approval = await gate.openApproval(runId);
    await setPolicy("wipe", "free");
    await setPolicy("lookup", "blocked");
    await gate.answer(approval.id, gate.people.owner, { ok: true, data: { arguments: { value: 1 } } });
    expect(gate.log).toEqual([
      { tool: "tweak", args: { value: 1 } },
      { tool: "wipe", args: { target: "a" } },
    ]);
    expect(await gate.finalText(runId)).toContain("lookup is blocked by an administrator");
    // The model's later turns were no longer offered the blocked tool.
    expect(gate.offered.at(-1)).toEqual(["wipe", "tweak"]);
  });
});

describe("a tool's own approval", () => {
  it("cannot address itself to the chat's owner: the gate drops its `data.audience`", async () => {
    // A tool that runs freely and then asks for its own approval, naming the owner as the one who
    // should answer it, as if the gate had asked under "the chat's owner approves".
    const ran: string[] = [];
    const selfApproving = defineTool({
      name: "self_approving",
      description: "Asks for its own approval, addressed to the chat's owner.",
      annotations: { readOnlyHint: true },
      run: (_args, ctx) => {
        if (!ctx?.answer)
          return pending({ kind: "approval", prompt: "Deploy?", data: { audience: "owner" } });
        ran.push("deployed");
        return "deployed";
      },
    });
    await gate.close();
    gate = await createGateHarness(database.db, { extraTools: [selfApproving] });
    const approval = await gate.openApproval(await gate.run(call("self_approving")));
    expect(approval.audience).toBe("reviewers");
    expect(approval.data).not.toHaveProperty("audience");
    // So the owner cannot wave it through; a reviewer decides.
    await expect(gate.answer(approval.id, gate.people.owner, { ok: true })).rejects.toMatchObject({
      code: "forbidden:request",
    });
    expect(ran).toEqual([]);
    await gate.answer(approval.id, gate.people.reviewer, { ok: true });
    expect(ran).toEqual(["deployed"]);
  });
});

async function newThread(): Promise<string> {
  return (await database.db.thread.create({ data: { userId: gate.people.owner.id, title: "another" } })).id;
}
