import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createPostgresEventBus } from "@/lib/engine/postgres-event-bus";
import { makeTestEngine } from "@/lib/engine/testing/engine-fixture";
import { memoryLog } from "@/lib/engine/testing/scripted-agent";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, requestsOf, textOf, tokenFor, until } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";

// Two instances on one PostgreSQL, each serving /api/mcp over real HTTP: a call waits on one,
// the reviewer's answer is taken on the other, and the bus's LISTEN/NOTIFY wakes the call.
describe("the MCP server across instances on one PostgreSQL", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("answers a call waiting on one instance with the answer taken on another, and finds it again from either", {
    timeout: 60_000,
  }, async () => {
    const { db, url: connectionString } = database;
    const { owner, reviewer } = await seedPeople(db);
    const [busA, busB] = await Promise.all([
      createPostgresEventBus({ connectionString, instanceId: "a" }),
      createPostgresEventBus({ connectionString, instanceId: "b" }),
    ]);
    const a = makeTestEngine({ db, log: memoryLog(), bus: busA });
    const b = makeTestEngine({ db, log: memoryLog(), bus: busB });
    const [serverA, serverB] = await Promise.all([
      serveOverHttp((request) => serveMcp(request, { db, engine: a, bus: busA })),
      serveOverHttp((request) => serveMcp(request, { db, engine: b, bus: busB })),
    ]);
    // Waits re-read the request only every minute: only the notification can wake this call in time.
    process.env.TOOLNEXUS_MCP_PROGRESS_MS = "60000";
    try {
      const { token } = await tokenFor(db, owner);
      const onA = await connect(serverA.url, token);
      const call = onA.callTool({
        name: "permission_prompt",
        arguments: { tool_name: "Bash", input: { command: "git push" }, tool_use_id: "toolu_pg" },
      });
      const open = await openRequestOf(db, owner.id);
      await b.answerRequest({
        requestId: open.id,
        actor: reviewer,
        answer: { ok: true, data: { arguments: { command: "git push --dry-run" } } },
      });
      const answeredAt = Date.now();
      const decision = JSON.parse(textOf(await call));
      expect(Date.now() - answeredAt).toBeLessThan(5_000);
      expect(decision).toEqual({
        behavior: "allow",
        updatedInput: { command: "git push --dry-run" },
      });
      // The repeat on the other instance finds the same, answered request.
      const onB = await connect(serverB.url, token);
      const repeat = await onB.callTool({
        name: "permission_prompt",
        arguments: { tool_name: "Bash", input: { command: "git push" }, tool_use_id: "toolu_pg" },
      });
      expect(JSON.parse(textOf(repeat)).updatedInput).toEqual({ command: "git push --dry-run" });
      expect(await requestsOf(db, owner.id)).toHaveLength(1);
      await Promise.all([onA.close(), onB.close()]);
    } finally {
      delete process.env.TOOLNEXUS_MCP_PROGRESS_MS;
      await Promise.all([serverA.close(), serverB.close()]);
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([busA.close(), busB.close()]);
    }
  });

  it("cancels a call whose cancel reaches another instance than the call", { timeout: 60_000 }, async () => {
    const { db, url: connectionString } = database;
    const { owner } = await seedPeople(db);
    const [busA, busB] = await Promise.all([
      createPostgresEventBus({ connectionString, instanceId: "a" }),
      createPostgresEventBus({ connectionString, instanceId: "b" }),
    ]);
    const a = makeTestEngine({ db, log: memoryLog(), bus: busA });
    const b = makeTestEngine({ db, log: memoryLog(), bus: busB });
    // A load balancer without stickiness: each POST goes to the other instance than the last.
    let turn = 0;
    const balancer = await serveOverHttp((request) => {
      turn += 1;
      return turn % 2 === 0
        ? serveMcp(request, { db, engine: a, bus: busA })
        : serveMcp(request, { db, engine: b, bus: busB });
    });
    try {
      const { token } = await tokenFor(db, owner);
      const client = await connect(balancer.url, token);
      const stop = new AbortController();
      const call = client.callTool({ name: "ask_human", arguments: { prompt: "Which region?" } }, undefined, {
        signal: stop.signal,
      });
      const open = await openRequestOf(db, owner.id);
      const before = turn;
      stop.abort("not needed any more");
      await expect(call).rejects.toThrow();
      await until(
        async () =>
          (await a.readOwnRequest({ requestId: open.id, ownerId: owner.id })).status === "cancelled",
      );
      // The cancel was the one POST after the call, so another instance served it.
      expect(turn).toBe(before + 1);
      await client.close();
    } finally {
      await balancer.close();
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([busA.close(), busB.close()]);
    }
  });
});
