import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { saveToolRules } from "@/app/admin/_lib/manage-tool-rules";
import type { SessionUser } from "@/lib/auth/session-user";
import { addApproverGroupMember, createApproverGroup } from "@/lib/db/approver-group-admin";
import type { Db } from "@/lib/db/sql/client";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { replaceToolRules } from "@/lib/db/tool-rules";
import type { ToolRuleDraft } from "@/lib/domain/tool-rules";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, requestsOf, textOf, tokenFor } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";

// The admin's rules for a tool (ADR 0074) judge an MCP client's permission prompts too, keyed by
// the prompt's tool_name, over real HTTP with the official SDK's client: a group rule addresses
// the request to the group, a blocked rule or a condition that fails denies at once, and a rule
// that does not hold leaves the reviewers to answer.

function suite(provider: TestProvider) {
  let db: Db;
  let engine: Engine;
  let bus: EventBus;
  let url: string;
  let close: () => Promise<void>;
  let admin: SessionUser;
  withTestEngine((started) => {
    ({ db, engine, bus } = started);
  }, provider);
  beforeAll(async () => {
    ({ url, close } = await serveOverHttp((request) => serveMcp(request, { db, engine, bus })));
    admin = await newUser(db, "admin");
  });
  afterAll(() => close?.());
  beforeEach(async () => {
    await db.toolRule.deleteMany();
    await db.approverGroupMember.deleteMany();
    await db.approverGroup.deleteMany();
  });

  const setBashRules = async (rules: ToolRuleDraft[]) => {
    const change = await replaceToolRules({ db, toolName: "Bash", expected: [], rules, actorId: admin.id });
    expect(change.outcome).toBe("changed");
  };

  const finance = async (members: SessionUser[]) => {
    const created = await createApproverGroup({ db, slug: "finance", name: "Finance", actorId: admin.id });
    if (created.outcome !== "created") throw new Error("no group");
    for (const member of members)
      await addApproverGroupMember({ db, groupId: created.id, userId: member.id, actorId: admin.id });
  };

  const bash = (command: string) => ({
    name: "permission_prompt",
    arguments: { tool_name: "Bash", input: { command } },
  });

  async function asker() {
    const owner = await newUser(db, "user");
    const { token } = await tokenFor(db, owner);
    return { owner, client: await connect(url, token) };
  }

  const publishToFinance = {
    condition: 'args.command.startsWith("npm publish") && tool.source == "mcp-client"',
    outcome: { kind: "group", group: "finance", required: 2 },
  } satisfies ToolRuleDraft;

  it("a group rule that holds addresses the request to the group: M members approve, never the asker", async () => {
    const { owner, client } = await asker();
    const [first, second] = [await newUser(db, "user"), await newUser(db, "user")];
    await finance([owner, first, second]);
    await setBashRules([publishToFinance]);
    const call = client.callTool(bash("npm publish --access public"));
    const open = await openRequestOf(db, owner.id);
    expect(open).toMatchObject({ audience: "group", audienceGroup: "finance", required: 2 });
    // No "always allow" is offered: one answer must not stand in for the group's votes later.
    expect(JSON.stringify(open.request.data)).not.toContain("allowForToken");
    // The token's owner is the asker: a member of the group, yet their vote never counts.
    await expect(
      engine.answerRequest({ requestId: open.id, actor: owner, answer: { ok: true } }),
    ).rejects.toMatchObject({ code: "forbidden:four_eyes" });
    await engine.answerRequest({ requestId: open.id, actor: first, answer: { ok: true } });
    expect((await requestsOf(db, owner.id))[0]?.status).toBe("open");
    await engine.answerRequest({ requestId: open.id, actor: second, answer: { ok: true } });
    expect(JSON.parse(textOf(await call)).behavior).toBe("allow");
    await client.close();
  });

  it("a rule that does not hold leaves the request to the reviewers, as without rules", async () => {
    const { owner, client } = await asker();
    await finance([await newUser(db, "user"), await newUser(db, "user")]);
    await setBashRules([publishToFinance]);
    const reviewer = await newUser(db, "reviewer");
    const call = client.callTool(bash("npm test"));
    const open = await openRequestOf(db, owner.id);
    expect(open).toMatchObject({ audience: "reviewers", audienceGroup: null, required: 1 });
    await engine.answerRequest({ requestId: open.id, actor: reviewer, answer: { ok: true } });
    expect(JSON.parse(textOf(await call)).behavior).toBe("allow");
    await client.close();
  });

  it("a blocked rule denies at once and asks nobody; a free rule allows at once", async () => {
    const { owner, client } = await asker();
    await setBashRules([
      { condition: 'args.command.contains("rm -rf")', outcome: { kind: "blocked" } },
      { condition: 'args.command == "ls"', outcome: { kind: "free" } },
    ]);
    const denied = JSON.parse(textOf(await client.callTool(bash("rm -rf /"))));
    expect(denied).toEqual({
      behavior: "deny",
      message: expect.stringMatching(/blocked by an administrator's rule \(rule 1\)/),
    });
    const allowed = JSON.parse(textOf(await client.callTool(bash("ls"))));
    expect(allowed).toEqual({ behavior: "allow", updatedInput: { command: "ls" } });
    expect(await requestsOf(db, owner.id)).toHaveLength(0);
    await client.close();
  });

  it("a rule an admin saves for Bash through the rules editor's action judges the next prompt", async () => {
    const { owner, client } = await asker();
    await saveToolRules(
      {
        actor: admin,
        input: {
          toolName: "Bash",
          expected: [],
          rules: [
            { condition: 'tool.source == "mcp-client" && args.command == "pwd"', outcome: { kind: "free" } },
          ],
        },
      },
      { db, mcp: { tools: async () => [] } },
    );
    const allowed = JSON.parse(textOf(await client.callTool(bash("pwd"))));
    expect(allowed).toEqual({ behavior: "allow", updatedInput: { command: "pwd" } });
    expect(await requestsOf(db, owner.id)).toHaveLength(0);
    await client.close();
  });

  it("a condition that fails denies (fail closed) and the audit records why", async () => {
    const { owner, client } = await asker();
    await setBashRules([{ condition: 'args.url.startsWith("https://")', outcome: { kind: "free" } }]);
    const decision = JSON.parse(textOf(await client.callTool(bash("curl example.test"))));
    expect(decision).toEqual({
      behavior: "deny",
      message: expect.stringMatching(/rule 1 of this tool could not be applied/),
    });
    expect(await requestsOf(db, owner.id)).toHaveLength(0);
    const entry = await db.auditLog.findFirstOrThrow({
      where: { action: "tool.rule_failed", actorId: owner.id },
    });
    expect(entry.targetId).toBe("Bash");
    expect(JSON.stringify(entry.detail)).toContain("url");
    await client.close();
  });
}

for (const provider of ["sqlite", "postgres"] as const) {
  describe(`tool rules on an MCP client's permission prompts on ${provider}`, () => suite(provider));
}
