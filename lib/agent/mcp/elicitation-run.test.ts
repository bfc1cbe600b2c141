import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentToolkit } from "@/lib/agent/create-agent-toolkit";
import { formatDecline } from "@/lib/agent/format-decline";
import { getAgentClient } from "@/lib/agent/get-agent-client";
import { createThread } from "@/lib/db/chat-threads";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus } from "@/lib/engine/event-bus";
import { toPublicError } from "@/lib/errors";
import { checkServerEntry, connectWithLibrary } from "./library-connection";
import { createMcpPool, type McpPool } from "./mcp-pool";

// The app's whole path for an MCP form elicitation: the demo model calls the demo tracker's
// open_ticket, the server asks for the details, the run parks on an `input` request, and the
// owner's answer goes through engine.answerRequest like every other answer. open_ticket is
// neither read-only nor destructive, so the chat's owner approves the call first (the approval
// gate); the server's question then continues the same call.

const root = path.resolve(import.meta.dirname, "../../..");
let database: TestDatabase;
let db: Db;
let stateDir: string;

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  db = database.db as Db;
  stateDir = mkdtempSync(path.join(tmpdir(), "toolnexus-tickets-"));
});
afterAll(async () => {
  await database?.drop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** One app process: its own pool (and so its own tracker child process) and engine. */
function startProcess(name: string): { engine: Engine; pool: McpPool; stop: () => Promise<void> } {
  const entry = checkServerEntry("tickets", {
    command: process.execPath,
    args: [
      "--import",
      "tsx",
      path.join(root, "scripts/demo-mcp-server.ts"),
      "--state",
      path.join(stateDir, "t.json"),
    ],
    cwd: root,
  });
  const pool = createMcpPool({
    connect: connectWithLibrary,
    loadServers: async () => ({
      servers: [{ name: "tickets", origin: "config", status: "enabled", entry, key: "tickets" }],
    }),
  });
  const bus = createMemoryEventBus();
  const engine = createEngine({
    db,
    bus,
    instanceId: `${name}-${process.pid}`,
    createClient: () =>
      getAgentClient({
        config: { provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 },
        loop: { formatDecline },
      }),
    createToolkit: async ({ userId, runId, threadId }) =>
      createAgentToolkit({ userId, runId, threadId, db, balance: false, mcpTools: await pool.tools() }),
    textFlushMs: 0,
  });
  return {
    engine,
    pool,
    stop: async () => {
      await engine.idle();
      await engine.stop();
      await pool.close();
      await bus.close();
    },
  };
}

let users = 0;
async function openTicketRun(
  { engine, pool }: { engine: Engine; pool: McpPool },
  message = "open a ticket",
  tool = "tickets_open_ticket",
) {
  // A run waits only so long for a server still starting; on a busy machine the tracker's first
  // start can take longer, and the run would go on without its tools.
  await expect
    .poll(async () => (await pool.tools()).some((listed) => listed.name === tool), { timeout: 60_000 })
    .toBe(true);
  users += 1;
  const owner = { id: `owner-${users}`, role: "user" as const };
  await db.user.create({ data: { ...owner, email: `owner-${users}@example.test` } });
  const { id: threadId } = await createThread({ db, userId: owner.id });
  const { runId } = await engine.startRun({ threadId, userId: owner.id, message });
  await engine.idle();
  const approval = await db.request.findFirstOrThrow({ where: { runId } });
  expect(approval).toMatchObject({ kind: "approval", audience: "owner", toolName: tool });
  await engine.answerRequest({
    requestId: approval.id,
    actor: owner,
    answer: { ok: true, data: { arguments: {} } },
  });
  await engine.idle();
  const request = await db.request.findFirstOrThrow({ where: { runId, status: "open" } });
  return { owner, runId, threadId, request };
}

/** What answering may change: the request, the run, and the thread's events. */
async function stateOf(runId: string, threadId: string) {
  return {
    requests: await db.request.findMany({ where: { runId }, select: { status: true, answer: true } }),
    run: await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } }),
    events: await db.event.count({ where: { threadId } }),
  };
}

async function lastReply(threadId: string): Promise<string> {
  const finished = await db.event.findFirst({
    where: { threadId, type: "run_finished" },
    orderBy: { seq: "desc" },
  });
  return String((finished?.payload as { text?: string } | null)?.text ?? "");
}

describe("an MCP form elicitation in the app", () => {
  it("parks as the owner's input request, refuses an answer that fails the requested schema, then completes", async () => {
    const app = startProcess("one");
    try {
      const { owner, runId, threadId, request } = await openTicketRun(app);
      expect(request).toMatchObject({
        kind: "input",
        audience: "owner",
        status: "open",
        toolName: "tickets_open_ticket",
      });
      const payload = request.payload as {
        prompt: string;
        data: { schema: unknown; mcp: Record<string, unknown> };
      };
      expect(payload.prompt).toBe("Which ticket should be opened?");
      expect(payload.data.mcp).toMatchObject({ server: "tickets", tool: "open_ticket", mode: "form" });

      const before = await stateOf(runId, threadId);
      for (const data of [{ title: "no" }, { title: "Printer on fire", priority: "urgent" }]) {
        const refused = await app.engine
          .answerRequest({ requestId: request.id, actor: owner, answer: { ok: true, data } })
          .then(() => null, toPublicError);
        expect(refused).toMatchObject({ code: "invalid:answer" });
        expect(refused?.issues.length).toBeGreaterThan(0);
        expect(await stateOf(runId, threadId)).toEqual(before);
      }

      await app.engine.answerRequest({
        requestId: request.id,
        actor: owner,
        answer: { ok: true, data: { title: "Printer on fire", priority: "high" } },
      });
      await app.engine.idle();
      expect((await stateOf(runId, threadId)).run.status).toBe("done");
      expect(await lastReply(threadId)).toMatch(/Opened #\d+ \[open\] \(high\) Printer on fire/);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it("is answered after the process that parked it is gone: a new process replays the answer to the server", async () => {
    const first = startProcess("first");
    let parked: Awaited<ReturnType<typeof openTicketRun>>;
    try {
      parked = await openTicketRun(first);
    } finally {
      // Its tracker child process and the open call go with it.
      await first.stop();
    }
    const second = startProcess("second");
    try {
      const { owner, runId, threadId, request } = parked;
      await second.engine.answerRequest({
        requestId: request.id,
        actor: owner,
        answer: { ok: true, data: { title: "Answered after a restart", priority: "low" } },
      });
      await second.engine.idle();
      expect((await stateOf(runId, threadId)).run.status).toBe("done");
      expect(await lastReply(threadId)).toMatch(/Opened #\d+ \[open\] \(low\) Answered after a restart/);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it("takes the owner's word that they finished at a URL elicitation's page, and passes a decline on", async () => {
    const app = startProcess("url");
    try {
      for (const [answer, reply] of [
        [{ ok: true }, "Your tracker account is linked."],
        [{ ok: false, reason: "declined" }, "The account was not linked (decline)."],
      ] as const) {
        const { owner, runId, threadId, request } = await openTicketRun(
          app,
          "call tickets_link_account",
          "tickets_link_account",
        );
        expect(request).toMatchObject({ kind: "authorization", audience: "owner", status: "open" });
        expect((request.payload as { data: { mcp: unknown } }).data.mcp).toMatchObject({
          server: "tickets",
          mode: "url",
        });
        await app.engine.answerRequest({ requestId: request.id, actor: owner, answer });
        await app.engine.idle();
        expect((await stateOf(runId, threadId)).run.status).toBe("done");
        expect(await lastReply(threadId)).toContain(reply);
      }
    } finally {
      await app.stop();
    }
  }, 60_000);
});
