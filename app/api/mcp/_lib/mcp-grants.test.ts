import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { revokeOwnToken, revokeTokenGrant } from "@/app/settings/tokens/_lib/manage-tokens";
import { listApiTokenToolGrantsByUser } from "@/lib/db/api-token-grants";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, requestsOf, textOf, tokenFor } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";

// "Always allow <tool> for this token" (ADR 0065) over real HTTP with the official SDK's client,
// on both databases: the approver ticks it, the token's next prompt for the tool asks nobody.

describe.each(["sqlite", "postgres"] as const)("always allow a tool for a token, on %s", (provider) => {
  let db: Db;
  let engine: Engine;
  let bus: EventBus;
  let url: string;
  let close: () => Promise<void>;
  withTestEngine((started) => {
    ({ db, engine, bus } = started);
  }, provider);
  beforeAll(async () => {
    ({ url, close } = await serveOverHttp((request) => serveMcp(request, { db, engine, bus })));
  });
  afterAll(() => close?.());

  async function people() {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { token, id: tokenId } = await tokenFor(db, owner);
    return { owner, reviewer, token, tokenId, client: await connect(url, token) };
  }

  const prompt = (command: string, toolName = "Bash") => ({
    name: "permission_prompt",
    arguments: { tool_name: toolName, input: { command } },
  });

  /** Asks, and has the reviewer approve with `data`; returns the decision. */
  async function askAndApprove(
    who: Awaited<ReturnType<typeof people>>,
    command: string,
    data: Record<string, unknown>,
  ) {
    const call = who.client.callTool(prompt(command));
    const open = await openRequestOf(db, who.owner.id);
    await engine.answerRequest({ requestId: open.id, actor: who.reviewer, answer: { ok: true, data } });
    return { open, decision: JSON.parse(textOf(await call)) };
  }

  it("offers the grant, and once ticked allows the tool's next prompts on the token unasked, audited", {
    timeout: 30_000,
  }, async () => {
    const who = await people();
    const { open } = await askAndApprove(who, "ls", { allowForToken: true });
    const schema = open.request.data?.schema as { properties: Record<string, { title?: string }> };
    expect(schema.properties.allowForToken?.title).toBe("Always allow Bash for this token");

    expect(JSON.parse(textOf(await who.client.callTool(prompt("rm -rf build"))))).toEqual({
      behavior: "allow",
      updatedInput: { command: "rm -rf build" },
    });
    expect(await requestsOf(db, who.owner.id)).toHaveLength(1);
    const audit = await db.auditLog.findMany({
      where: { targetId: who.tokenId, action: { startsWith: "api_token.tool" } },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => [entry.actorId, entry.action])).toEqual([
      [who.reviewer.id, "api_token.tool_allowed"],
      [who.owner.id, "api_token.tool_allowed_by_grant"],
    ]);
    // Another tool on the token still asks.
    const other = who.client.callTool(prompt("x", "Write"));
    expect((await openRequestOf(db, who.owner.id)).request.prompt).toContain("Write");
    await who.client.close();
    await other.catch(() => undefined);
  });

  it("an approval without the tick grants nothing", { timeout: 30_000 }, async () => {
    const who = await people();
    await askAndApprove(who, "ls", {});
    expect(await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).toEqual([]);
    await who.client.close();
  });

  it("asks again once the owner revokes the grant; nobody else can revoke it", {
    timeout: 30_000,
  }, async () => {
    const who = await people();
    await askAndApprove(who, "ls", { allowForToken: true });
    const input = { tokenId: who.tokenId, toolName: "Bash" };
    for (const role of ["user", "reviewer", "admin"] as const) {
      const other = await newUser(db, role);
      expect(await codeOf(revokeTokenGrant({ actor: other, input }, { db }))).toBe("not_found:token_grant");
    }
    expect(await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).toHaveLength(1);
    await expect(revokeTokenGrant({ actor: who.owner, input }, { db })).resolves.toEqual(input);
    expect(await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).toEqual([]);

    const { decision } = await askAndApprove(who, "pwd", {});
    expect(decision).toEqual({ behavior: "allow", updatedInput: { command: "pwd" } });
    expect(await requestsOf(db, who.owner.id)).toHaveLength(2);
    await who.client.close();
  });

  it("asks again when a call whose approval granted is repeated after the grant was revoked", {
    timeout: 30_000,
  }, async () => {
    const who = await people();
    const sameUse = {
      name: "permission_prompt",
      arguments: { tool_name: "Bash", input: { command: "npm publish" }, tool_use_id: "toolu_regrant" },
    };
    const first = who.client.callTool(sameUse);
    const open = await openRequestOf(db, who.owner.id);
    await engine.answerRequest({
      requestId: open.id,
      actor: who.reviewer,
      answer: { ok: true, data: { allowForToken: true } },
    });
    expect(JSON.parse(textOf(await first)).behavior).toBe("allow");
    const input = { tokenId: who.tokenId, toolName: "Bash" };
    await revokeTokenGrant({ actor: who.owner, input }, { db });

    // The same tool use again, as after a dropped connection: not the old allow, a new question.
    const repeat = who.client.callTool(sameUse);
    const asked = await openRequestOf(db, who.owner.id);
    expect(asked.id).not.toBe(open.id);
    expect(await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).toEqual([]);
    await engine.answerRequest({
      requestId: asked.id,
      actor: who.reviewer,
      answer: { ok: false, reason: "declined", data: { reason: "Not any more." } },
    });
    const denied = { behavior: "deny", message: "Not any more." };
    expect(JSON.parse(textOf(await repeat))).toEqual(denied);
    // Its own repeat finds the new decision; the revoked grant stays revoked.
    expect(JSON.parse(textOf(await who.client.callTool(sameUse)))).toEqual(denied);
    expect(await requestsOf(db, who.owner.id)).toHaveLength(2);
    expect(await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).toEqual([]);
    await who.client.close();
  });

  it("grants only the token that asked, whatever token id the answer carries, and only by an approver", {
    timeout: 30_000,
  }, async () => {
    const who = await people();
    const victim = await people();
    const call = who.client.callTool(prompt("ls"));
    const open = await openRequestOf(db, who.owner.id);
    // A person who may not answer the request cannot grant through it.
    const stranger = await newUser(db, "user");
    await expect(
      engine.answerRequest({
        requestId: open.id,
        actor: stranger,
        answer: { ok: true, data: { allowForToken: true } },
      }),
    ).rejects.toThrow();
    await engine.answerRequest({
      requestId: open.id,
      actor: who.reviewer,
      answer: { ok: true, data: { allowForToken: true, tokenId: victim.tokenId } },
    });
    await call;
    expect(await listApiTokenToolGrantsByUser({ db, userId: victim.owner.id })).toEqual([]);
    expect((await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).map((g) => g.tokenId)).toEqual([
      who.tokenId,
    ]);
    // The victim's token still asks.
    const asked = victim.client.callTool(prompt("ls"));
    await openRequestOf(db, victim.owner.id);
    await Promise.all([who.client.close(), victim.client.close()]);
    await asked.catch(() => undefined);
  });

  it("revoking the token ends its grants", { timeout: 30_000 }, async () => {
    const who = await people();
    await askAndApprove(who, "ls", { allowForToken: true });
    await revokeOwnToken({ actor: who.owner, input: { tokenId: who.tokenId } }, { db });
    expect(await db.apiTokenToolGrant.count({ where: { tokenId: who.tokenId } })).toBe(0);
    expect(await listApiTokenToolGrantsByUser({ db, userId: who.owner.id })).toEqual([]);
    await who.client.close();
  });
});
