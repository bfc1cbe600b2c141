import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus, type EventBus } from "@/lib/engine/event-bus";
import { createPostgresEventBus } from "@/lib/engine/postgres-event-bus";
import { makeTestEngine } from "@/lib/engine/testing/engine-fixture";
import { memoryLog } from "@/lib/engine/testing/scripted-agent";
import { serveMcp } from "./serve-mcp";
import { connect, openRequestOf, requestsOf, textOf, tokenFor, until } from "./testing/mcp-fixture";
import { serveOverHttp } from "./testing/serve-over-http";
import { waitingCallsOf } from "./waiting-calls";

// A token's limit of waiting calls holds across instances (ADR 0072): two instances share one
// database, each with its own bus and its own HTTP server, and the SDK's client calls both.

interface Instance {
  engine: Engine;
  bus: EventBus;
  url: string;
  close(): Promise<void>;
}

async function startInstance(db: DbClient, provider: TestProvider, database: TestDatabase, name: string) {
  const bus =
    provider === "postgres"
      ? await createPostgresEventBus({ connectionString: database.url, instanceId: name })
      : createMemoryEventBus();
  const engine = makeTestEngine({ db, log: memoryLog(), bus });
  const server = await serveOverHttp((request) => serveMcp(request, { db, engine, bus }));
  return {
    engine,
    bus,
    url: server.url,
    close: async () => {
      await server.close();
      await engine.stop();
      await bus.close();
    },
  } satisfies Instance;
}

describe.each<TestProvider>(["sqlite", "postgres"])(
  "the waiting limit across instances on %s",
  (provider) => {
    let database: TestDatabase;
    let a: Instance;
    let b: Instance;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
      a = await startInstance(database.db, provider, database, "a");
      // PostgreSQL instances have pools of their own; SQLite's are processes, and two connections
      // of one process would wait on each other's write lock synchronously.
      b = await startInstance(
        provider === "postgres" ? database.connect() : database.db,
        provider,
        database,
        "b",
      );
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await database?.drop();
    });

    const ask = (toolUseId: string) => ({
      name: "permission_prompt",
      arguments: { tool_name: "Bash", input: { command: "make deploy" }, tool_use_id: toolUseId },
    });

    it("refuses a call on one instance while the token's calls fill the limit on the other", {
      timeout: 60_000,
    }, async () => {
      process.env.TOOLNEXUS_MCP_MAX_WAITING = "2";
      try {
        const { db } = database;
        const { owner, reviewer } = await seedPeople(db);
        const { token, id: tokenId } = await tokenFor(db, owner);
        const [onA, onB] = await Promise.all([connect(a.url, token), connect(b.url, token)]);
        const first = onA.callTool(ask("toolu_1"));
        const second = onA.callTool(ask("toolu_2"));
        await until(async () => waitingCallsOf({ db, bus: a.bus }).count(tokenId) === 2);

        const over = await onB.callTool(ask("toolu_3"));
        expect(over.isError).toBe(true);
        expect(textOf(over)).toMatch(/already has 2 calls waiting/);
        expect(await requestsOf(db, owner.id)).toHaveLength(2);
        expect(waitingCallsOf({ db, bus: b.bus }).count(tokenId)).toBe(0);

        // One answered frees its place, and the other instance takes it.
        const [one, two] = await requestsOf(db, owner.id);
        await a.engine.answerRequest({ requestId: one!.id, actor: reviewer, answer: { ok: true } });
        await Promise.race([first, second]);
        const third = onB.callTool(ask("toolu_3"));
        // The place is taken before the request is made.
        await until(async () => (await requestsOf(db, owner.id)).length === 3);
        expect(waitingCallsOf({ db, bus: b.bus }).count(tokenId)).toBe(1);
        const made = (await requestsOf(db, owner.id)).find(
          (request) => ![one!.id, two!.id].includes(request.id),
        );
        // Each answered where its call waits: SQLite's instances share no bus (it runs as one).
        await a.engine.answerRequest({ requestId: two!.id, actor: reviewer, answer: { ok: true } });
        await b.engine.answerRequest({ requestId: made!.id, actor: reviewer, answer: { ok: true } });
        const decisions = await Promise.all([first, second, third]);
        expect(decisions.map((result) => JSON.parse(textOf(result)).behavior)).toEqual([
          "allow",
          "allow",
          "allow",
        ]);
        await until(async () => (await db.mcpWaitingCall.count({ where: { tokenId } })) === 0);
        await Promise.all([onA.close(), onB.close()]);
      } finally {
        delete process.env.TOOLNEXUS_MCP_MAX_WAITING;
      }
    });

    it("counts a call whose repeat comes to the other instance once", { timeout: 60_000 }, async () => {
      process.env.TOOLNEXUS_MCP_MAX_WAITING = "1";
      try {
        const { db } = database;
        const { owner, reviewer } = await seedPeople(db);
        const { token, id: tokenId } = await tokenFor(db, owner);
        const dropped = await connect(a.url, token);
        void dropped.callTool(ask("toolu_again")).catch(() => {});
        const open = await openRequestOf(db, owner.id);
        await dropped.close();
        // The dropped call gives its place back as it stops waiting.
        await until(async () => (await db.mcpWaitingCall.count({ where: { tokenId } })) === 0);
        const onB = await connect(b.url, token);
        const repeat = onB.callTool(ask("toolu_again"));
        await until(async () => waitingCallsOf({ db, bus: b.bus }).count(tokenId) === 1);
        await b.engine.answerRequest({ requestId: open.id, actor: reviewer, answer: { ok: true } });
        expect(JSON.parse(textOf(await repeat)).behavior).toBe("allow");
        expect(await requestsOf(db, owner.id)).toHaveLength(1);
        await onB.close();
      } finally {
        delete process.env.TOOLNEXUS_MCP_MAX_WAITING;
      }
    });
  },
);
