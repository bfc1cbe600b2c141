import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, requestsOf, textOf, tokenFor } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";

// The MCP server over real HTTP, called with the official SDK's client, on the real engine
// and a real SQLite database; a reviewer answers in the inbox through the engine's one answer path.

let db: Db;
let engine: Engine;
let bus: EventBus;
let url: string;
let close: () => Promise<void>;
withTestEngine((started) => {
  ({ db, engine, bus } = started);
});
beforeAll(async () => {
  ({ url, close } = await serveOverHttp((request) => serveMcp(request, { db, engine, bus })));
});
afterAll(() => close?.());

async function people() {
  const owner = await newUser(db, "user");
  const reviewer = await newUser(db, "reviewer");
  const { token } = await tokenFor(db, owner);
  return { owner, reviewer, token, client: await connect(url, token) };
}

describe("the MCP server's tools", () => {
  it("lists its three tools with schemas and annotations", async () => {
    const { client } = await people();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask_human",
      "permission_prompt",
      "request_approval",
    ]);
    const prompt = tools.find((tool) => tool.name === "permission_prompt");
    expect(prompt?.inputSchema.required).toEqual(["tool_name", "input"]);
    expect(prompt?.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((tool) => tool.name === "request_approval")?.outputSchema?.properties).toHaveProperty(
      "approved",
    );
    await client.close();
  });

  it("permission_prompt: allows with the input as the approver edited it", async () => {
    const { owner, reviewer, client } = await people();
    const call = client.callTool({
      name: "permission_prompt",
      arguments: { tool_name: "Bash", input: { command: "npm publish" }, tool_use_id: "toolu_1" },
    });
    const open = await openRequestOf(db, owner.id);
    expect(open.request.kind).toBe("approval");
    expect(open.request.prompt).toBe("Claude Code wants to run Bash: `npm publish`");
    expect(open.audience).toBe("reviewers");
    await engine.answerRequest({
      requestId: open.id,
      actor: reviewer,
      answer: { ok: true, data: { arguments: { command: "npm publish --dry-run" } } },
    });
    expect(JSON.parse(textOf(await call))).toEqual({
      behavior: "allow",
      updatedInput: { command: "npm publish --dry-run" },
    });
    await client.close();
  });

  it("permission_prompt: denies with the approver's reason", async () => {
    const { owner, reviewer, client } = await people();
    const call = client.callTool({
      name: "permission_prompt",
      arguments: { tool_name: "Bash", input: { command: "rm -rf /" } },
    });
    const open = await openRequestOf(db, owner.id);
    await engine.answerRequest({
      requestId: open.id,
      actor: reviewer,
      answer: { ok: false, reason: "declined", data: { reason: "Not on a Friday." } },
    });
    expect(JSON.parse(textOf(await call))).toEqual({ behavior: "deny", message: "Not on a Friday." });
    await client.close();
  });

  it("permission_prompt: denies by default when nobody answers in time", async () => {
    process.env.TOOLNEXUS_MCP_EXPIRY_SECONDS = "1";
    try {
      const { client } = await people();
      const result = await client.callTool({
        name: "permission_prompt",
        arguments: { tool_name: "Write", input: { file_path: "/etc/hosts" } },
      });
      const decision = JSON.parse(textOf(result));
      expect(decision.behavior).toBe("deny");
      expect(decision.message).toMatch(/expired/);
      await client.close();
    } finally {
      delete process.env.TOOLNEXUS_MCP_EXPIRY_SECONDS;
    }
  });

  it("request_approval: returns the decision as structured content, with progress while it waits", async () => {
    process.env.TOOLNEXUS_MCP_PROGRESS_MS = "100";
    try {
      const { owner, reviewer, client } = await people();
      const progress: number[] = [];
      const call = client.callTool(
        { name: "request_approval", arguments: { prompt: "Ship 812?", arguments: { version: "812" } } },
        undefined,
        { onprogress: (p) => progress.push(p.progress), resetTimeoutOnProgress: true },
      );
      const open = await openRequestOf(db, owner.id);
      await new Promise((resolve) => setTimeout(resolve, 350));
      await engine.answerRequest({
        requestId: open.id,
        actor: reviewer,
        answer: { ok: true, data: { arguments: { version: "813" }, note: "813 has the fix" } },
      });
      const result = await call;
      expect(result.structuredContent).toEqual({
        request_id: open.id,
        status: "approved",
        approved: true,
        note: "813 has the fix",
        arguments: { version: "813" },
        by: reviewer.name,
      });
      expect(progress.length).toBeGreaterThanOrEqual(2);
      await client.close();
    } finally {
      delete process.env.TOOLNEXUS_MCP_PROGRESS_MS;
    }
  });

  it("ask_human: a schema form whose bad answer the inbox refuses, and whose good answer returns", async () => {
    const { owner, client } = await people();
    const schema = {
      type: "object",
      properties: { branch: { type: "string", enum: ["main", "dev"] } },
      required: ["branch"],
    };
    const call = client.callTool({ name: "ask_human", arguments: { prompt: "Which branch?", schema } });
    const open = await openRequestOf(db, owner.id);
    expect(open.audience).toBe("owner");
    await expect(
      engine.answerRequest({
        requestId: open.id,
        actor: owner,
        answer: { ok: true, data: { branch: "prod" } },
      }),
    ).rejects.toMatchObject({ code: "invalid:answer" });
    await engine.answerRequest({
      requestId: open.id,
      actor: owner,
      answer: { ok: true, data: { branch: "dev" } },
    });
    const result = await call;
    expect(result.structuredContent).toMatchObject({
      status: "answered",
      answered: true,
      data: { branch: "dev" },
    });
    expect(textOf(result)).toBe('{"branch":"dev"}');
    await client.close();
  });
});

describe("the MCP server refuses bad calls and asks nobody", () => {
  it("names the bad field, refuses oversize input and a reused tool_use_id", async () => {
    const { owner, reviewer, client } = await people();
    const missing = await client.callTool({ name: "permission_prompt", arguments: { tool_name: "Bash" } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/input/);
    const huge = await client.callTool({
      name: "permission_prompt",
      arguments: { tool_name: "Write", input: { content: "x".repeat(40_000) } },
    });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toMatch(/at most 16 KB/);
    expect(await requestsOf(db, owner.id)).toHaveLength(0);

    const first = client.callTool({
      name: "permission_prompt",
      arguments: { tool_name: "Bash", input: { command: "ls" }, tool_use_id: "toolu_same" },
    });
    const open = await openRequestOf(db, owner.id);
    await engine.answerRequest({ requestId: open.id, actor: reviewer, answer: { ok: true } });
    expect(JSON.parse(textOf(await first)).behavior).toBe("allow");
    const reused = await client.callTool({
      name: "permission_prompt",
      arguments: { tool_name: "Bash", input: { command: "rm -rf ~" }, tool_use_id: "toolu_same" },
    });
    expect(reused.isError).toBe(true);
    expect(textOf(reused)).toMatch(/tool_use_id was already used/);
    expect(await requestsOf(db, owner.id)).toHaveLength(1);
    await client.close();
  });

  it("refuses a body nested too deep or with a repeated key before any tool runs", async () => {
    const { owner, token } = await people();
    const post = (body: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body,
      });
    const call = (input: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"permission_prompt","arguments":{"tool_name":"Bash","input":${input}}}}`;
    const deep = await post(call(`${'{"a":'.repeat(2_000)}1${"}".repeat(2_000)}`));
    expect(deep.status).toBe(400);
    const deepBody = await deep.json();
    expect(deepBody.error.code).toBe(-32700);
    expect(deepBody.error.data.issues[0].path).toMatch(/^\/params\/arguments\/input\/a\/a/);
    const repeated = await post(call('{"command":"ls","command":"rm -rf ~"}'));
    expect(repeated.status).toBe(400);
    expect((await repeated.json()).error.data.issues[0].path).toBe("/params/arguments/input/command");
    expect(await requestsOf(db, owner.id)).toHaveLength(0);
  });
});
