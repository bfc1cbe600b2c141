import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, textOf, tokenFor } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";

// The inbox's own rules hold for an MCP client's requests, over real HTTP with the official SDK's
// client: the token's owner is the asker (so they cannot wave their own approval through), a
// request withdrawn in the inbox is a deny, and the API's rate limit counts every POST.

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
  return { owner, reviewer, token };
}

const prompt = {
  name: "permission_prompt",
  arguments: { tool_name: "Bash", input: { command: "terraform apply" } },
};

describe("the inbox's rules for an MCP client's requests", () => {
  it("the token's owner cannot approve their own permission prompt; a reviewer can", async () => {
    const { owner, reviewer, token } = await people();
    const client = await connect(url, token);
    const call = client.callTool(prompt);
    const open = await openRequestOf(db, owner.id);
    expect(open.ownerId).toBe(owner.id);
    await expect(
      engine.answerRequest({ requestId: open.id, actor: owner, answer: { ok: true } }),
    ).rejects.toMatchObject({ code: "forbidden:request" });
    await engine.answerRequest({ requestId: open.id, actor: reviewer, answer: { ok: true } });
    expect(JSON.parse(textOf(await call)).behavior).toBe("allow");
    await client.close();
  });

  it("a request cancelled in the inbox while the client waits is a deny saying so", async () => {
    const { owner, token } = await people();
    const client = await connect(url, token);
    const call = client.callTool(prompt);
    const open = await openRequestOf(db, owner.id);
    await engine.cancelRequest({ requestId: open.id, ownerId: owner.id });
    const decision = JSON.parse(textOf(await call));
    expect(decision).toEqual({ behavior: "deny", message: expect.stringMatching(/cancelled/) });
    await client.close();
  });

  it("counts every POST against the API's rate limit and refuses past it, creating nothing", async () => {
    process.env.TOOLNEXUS_API_RATE_LIMIT = "3";
    try {
      const { owner, token } = await people();
      // initialize and notifications/initialized are two POSTs, tools/list the third.
      const client = await connect(url, token);
      expect((await client.listTools()).tools).toHaveLength(3);
      await expect(client.callTool(prompt)).rejects.toThrow(/429|Too many calls/);
      expect(await db.request.count({ where: { ownerId: owner.id } })).toBe(0);
      await client.close();
    } finally {
      delete process.env.TOOLNEXUS_API_RATE_LIMIT;
    }
  });
});
