import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentToolkit } from "@/lib/agent/create-agent-toolkit";
import { formatDecline } from "@/lib/agent/format-decline";
import { getAgentClient } from "@/lib/agent/get-agent-client";
import { checkServerEntry, connectWithLibrary } from "@/lib/agent/mcp/library-connection";
import { createMcpPool, type McpPool } from "@/lib/agent/mcp/mcp-pool";
import type { Db } from "@/lib/db/sql/client";
import { type People, seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { setToolPolicyByName } from "@/lib/db/tool-policies";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus, type EventBus } from "@/lib/engine/event-bus";

// The approval gate in front of a real MCP server: the project's demo ticket tracker over stdio,
// driven by the demo model ("delete ticket 7"). What the server did is read from its state file.

const root = path.resolve(import.meta.dirname, "../../..");
const DELETE = "tickets_delete_ticket";
let database: TestDatabase;
let db: Db;
let dir: string;
let pool: McpPool;
let bus: EventBus;
let engine: Engine;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  db = database.db as Db;
  dir = mkdtempSync(path.join(tmpdir(), "toolnexus-policy-tickets-"));
  const entry = checkServerEntry("tickets", {
    command: process.execPath,
    args: [
      "--import",
      "tsx",
      path.join(root, "scripts/demo-mcp-server.ts"),
      "--state",
      path.join(dir, "t.json"),
    ],
    cwd: root,
  });
  pool = createMcpPool({
    connect: connectWithLibrary,
    loadServers: async () => ({
      servers: [{ name: "tickets", origin: "config", status: "enabled", entry, key: "tickets" }],
    }),
  });
  bus = createMemoryEventBus();
  engine = createEngine({
    db,
    bus,
    instanceId: `mcp-policies-${process.pid}`,
    createClient: () =>
      getAgentClient({
        config: { provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 },
        loop: { formatDecline },
      }),
    createToolkit: async ({ userId, runId, threadId }) =>
      createAgentToolkit({ userId, runId, threadId, db, balance: false, mcpTools: await pool.tools() }),
    textFlushMs: 0,
  });
  // The tracker's first start can be slow on a busy machine; runs only wait so long for it.
  const ready = Date.now() + 60_000;
  while (!(await pool.tools()).some((tool) => tool.name === DELETE)) {
    if (Date.now() > ready) throw new Error("the demo ticket tracker did not connect within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 90_000);
afterAll(async () => {
  await engine?.idle();
  await engine?.stop();
  await pool?.close();
  await bus?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The ticket ids the server still has: what it actually did (it seeds #1 to #7 until its first write). */
function ticketIds(): number[] {
  if (!existsSync(path.join(dir, "t.json"))) return [1, 2, 3, 4, 5, 6, 7];
  const state = JSON.parse(readFileSync(path.join(dir, "t.json"), "utf8")) as { tickets: { id: number }[] };
  return state.tickets.map((ticket) => ticket.id);
}

async function ask(text: string): Promise<{ people: People; runId: string; threadId: string }> {
  const people = await seedPeople(db);
  const { runId } = await engine.startRun({
    threadId: people.threadId,
    userId: people.owner.id,
    message: text,
  });
  await engine.idle();
  return { people, runId, threadId: people.threadId };
}

async function toolResults(threadId: string): Promise<string[]> {
  const events = await db.event.findMany({
    where: { threadId, type: "tool_result" },
    orderBy: { seq: "asc" },
  });
  return events.map((event) => String((event.payload as { output?: unknown }).output));
}

describe("approval policies on an MCP server's tools", () => {
  it("a destructive tool waits for a reviewer, and the server gets the arguments as the reviewer edited them", async () => {
    const { people, runId, threadId } = await ask("delete ticket 7");
    const approval = await db.request.findFirstOrThrow({ where: { runId } });
    expect(approval).toMatchObject({ kind: "approval", audience: "reviewers", toolName: DELETE });
    expect(ticketIds()).toContain(7);
    await engine.answerRequest({
      requestId: approval.id,
      actor: people.reviewer,
      answer: { ok: true, data: { arguments: { id: 3 }, note: "7 is still needed" } },
    });
    await engine.idle();
    expect(ticketIds()).toContain(7);
    expect(ticketIds()).not.toContain(3);
    expect(await toolResults(threadId)).toEqual([
      expect.stringMatching(/^Deleted ticket #3 The reviewer changed id from 7 to 3\./),
    ]);
  }, 60_000);

  it("a declined call never reaches the server", async () => {
    const { people, runId, threadId } = await ask("delete ticket 5");
    const approval = await db.request.findFirstOrThrow({ where: { runId } });
    await engine.answerRequest({
      requestId: approval.id,
      actor: people.reviewer,
      answer: { ok: false, reason: "declined" },
    });
    await engine.idle();
    expect(ticketIds()).toContain(5);
    expect(await toolResults(threadId)).toEqual([expect.stringMatching(/declined/)]);
  }, 60_000);

  it("racing approvals of one gated call: the server is called exactly once", async () => {
    const { people, runId, threadId } = await ask("delete ticket 2");
    const approval = await db.request.findFirstOrThrow({ where: { runId } });
    const answer = { ok: true, data: { arguments: { id: 2 } } };
    const outcomes = await Promise.allSettled([
      engine.answerRequest({ requestId: approval.id, actor: people.reviewer, answer }),
      engine.answerRequest({ requestId: approval.id, actor: people.admin, answer }),
    ]);
    await engine.idle();
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(ticketIds()).not.toContain(2);
    // A second call would have found no ticket #2 and said so.
    expect(await toolResults(threadId)).toEqual(["Deleted ticket #2"]);
  }, 60_000);

  it("a blocked tool is never offered to the model and the server never sees a call; a freed one runs without asking", async () => {
    const admin = (await seedPeople(db)).admin;
    await setToolPolicyByName({
      db,
      toolName: DELETE,
      policy: "blocked",
      defaultPolicy: "reviewer",
      actorId: admin.id,
    });
    const blocked = await ask("delete ticket 4");
    expect(await db.request.count({ where: { runId: blocked.runId } })).toBe(0);
    expect(ticketIds()).toContain(4);
    expect(await toolResults(blocked.threadId)).toEqual([]);
    const reply = await db.event.findFirstOrThrow({ where: { runId: blocked.runId, type: "run_finished" } });
    expect(String((reply.payload as { text?: unknown }).text)).toContain(
      `The ${DELETE} tool is not available`,
    );

    await setToolPolicyByName({
      db,
      toolName: DELETE,
      policy: "free",
      defaultPolicy: "reviewer",
      actorId: admin.id,
    });
    const freed = await ask("delete ticket 4");
    expect(await db.request.count({ where: { runId: freed.runId } })).toBe(0);
    expect(ticketIds()).not.toContain(4);
  }, 60_000);
});
