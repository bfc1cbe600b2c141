import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, withTestEngine } from "@/app/_lib/test-engine";
import { revokeApiTokenById } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { EventBus } from "@/lib/engine/event-bus";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, requestsOf, textOf, tokenFor, until } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";
import { waitingCallsOf } from "./waiting-calls";

// Long waits over real HTTP with the official SDK's client: a client's cancel, a dropped
// connection and its repeat, the per-token limit, and calls the server must refuse.

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
const waitingCount = (tokenId: string) => waitingCallsOf({ db, bus }).count(tokenId);

async function people() {
  const owner = await newUser(db, "user");
  const reviewer = await newUser(db, "reviewer");
  const { token, id } = await tokenFor(db, owner);
  return { owner, reviewer, token, tokenId: id };
}

const ask = (toolUseId: string) => ({
  name: "permission_prompt",
  arguments: { tool_name: "Bash", input: { command: "npm publish" }, tool_use_id: toolUseId },
});

describe("waiting calls", () => {
  it("a client's cancel cancels the request in the inbox", async () => {
    const { owner, token, tokenId } = await people();
    const client = await connect(url, token);
    const stop = new AbortController();
    const call = client.callTool(ask("toolu_cancel"), undefined, { signal: stop.signal });
    const open = await openRequestOf(db, owner.id);
    stop.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await until(
      async () =>
        (await engine.readOwnRequest({ requestId: open.id, ownerId: owner.id })).status === "cancelled",
    );
    await until(async () => waitingCount(tokenId) === 0);
    await client.close();
  });

  it("a dropped call's repeat finds the same request, and gets an answer given meanwhile at once", async () => {
    const { owner, reviewer, token, tokenId } = await people();
    const first = await connect(url, token);
    void first.callTool(ask("toolu_drop")).catch(() => {});
    const open = await openRequestOf(db, owner.id);
    await first.close();
    await until(async () => waitingCount(tokenId) === 0);
    expect((await engine.readOwnRequest({ requestId: open.id, ownerId: owner.id })).status).toBe("open");

    // Repeated while still open: it waits on the same request.
    const second = await connect(url, token);
    const repeat = second.callTool(ask("toolu_drop"));
    await until(async () => waitingCount(tokenId) === 1);
    await second.close();
    await repeat.catch(() => {});
    await until(async () => waitingCount(tokenId) === 0);

    // Answered while the client was away: the repeat returns the decision at once.
    await engine.answerRequest({ requestId: open.id, actor: reviewer, answer: { ok: true } });
    const third = await connect(url, token);
    const result = await third.callTool(ask("toolu_drop"));
    expect(JSON.parse(textOf(result))).toEqual({
      behavior: "allow",
      updatedInput: { command: "npm publish" },
    });
    expect(await requestsOf(db, owner.id)).toHaveLength(1);
    await third.close();
  });

  it("refuses a call over the token's limit of waiting calls", async () => {
    process.env.TOOLNEXUS_MCP_MAX_WAITING = "1";
    try {
      const { owner, reviewer, token } = await people();
      const client = await connect(url, token);
      const waiting = client.callTool(ask("toolu_a"));
      const open = await openRequestOf(db, owner.id);
      const over = await client.callTool(ask("toolu_b"));
      expect(over.isError).toBe(true);
      expect(textOf(over)).toMatch(/already has 1 calls waiting/);
      expect(await requestsOf(db, owner.id)).toHaveLength(1);
      await engine.answerRequest({ requestId: open.id, actor: reviewer, answer: { ok: true } });
      await waiting;
      await client.close();
    } finally {
      delete process.env.TOOLNEXUS_MCP_MAX_WAITING;
    }
  });
  it("holds 50 waiting calls without a listener warning, and answers every one", {
    timeout: 60_000,
  }, async () => {
    const { owner, reviewer, token, tokenId } = await people();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const client = await connect(url, token);
      const calls = Array.from({ length: 50 }, (_, i) => client.callTool(ask(`toolu_many_${i}`)));
      await until(async () => waitingCount(tokenId) === 50, 30_000);
      const open = await requestsOf(db, owner.id);
      for (const request of open) {
        await engine.answerRequest({ requestId: request.id, actor: reviewer, answer: { ok: true } });
      }
      const decisions = (await Promise.all(calls)).map((result) => JSON.parse(textOf(result)).behavior);
      expect(decisions).toEqual(Array(50).fill("allow"));
      await client.close();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.startsWith("MaxListenersExceededWarning"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("calls the server refuses", () => {
  const initialize = (authorization?: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "curl", version: "1" },
        },
      }),
    });

  it("says whether the token is missing, unknown, revoked or lacks a scope", async () => {
    const { owner } = await people();
    const revoked = await tokenFor(db, owner);
    await revokeApiTokenById({ db, id: revoked.id, actorId: owner.id });
    const readOnly = await tokenFor(db, owner, ["requests:read"]);
    const cases: [string | undefined, number, RegExp][] = [
      [undefined, 401, /No API token/],
      ["Bearer tnx_not-a-token", 401, /valid API token/],
      [`Bearer ${revoked.token}`, 401, /revoked/],
      [`Bearer ${readOnly.token}`, 403, /requests:write/],
    ];
    for (const [authorization, status, message] of cases) {
      const response = await initialize(authorization);
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001 } });
      expect(body.error.message).toMatch(message);
    }
    await expect(connect(url, readOnly.token)).rejects.toThrow(/403|requests:write/);
    expect(await requestsOf(db, owner.id)).toHaveLength(0);
  });

  it("answers every method but POST with a JSON-RPC 405 that says why", async () => {
    const { token } = await people();
    for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
      const response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await response.json()).toMatchObject({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32001,
          message: expect.stringMatching(/POST only/),
          data: { code: "method_not_allowed:route" },
        },
      });
    }
  });

  it("stops serving a token revoked between calls", async () => {
    const { owner, token, tokenId } = await people();
    const client = await connect(url, token);
    await revokeApiTokenById({ db, id: tokenId, actorId: owner.id });
    await expect(client.callTool(ask("toolu_revoked"))).rejects.toThrow(/401|revoked/);
    expect(await requestsOf(db, owner.id)).toHaveLength(0);
    await client.close();
  });
});
