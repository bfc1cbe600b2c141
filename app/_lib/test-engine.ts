import { afterAll, beforeAll } from "vitest";
import { startChatRun } from "@/app/chat/_lib/start-chat-run";
import { AGENT_LOOP_OPTIONS } from "@/lib/agent/agent-loop-options";
import { createAgentToolkit } from "@/lib/agent/create-agent-toolkit";
import { getAgentClient } from "@/lib/agent/get-agent-client";
import type { SessionUser } from "@/lib/auth/session-user";
import { createThread } from "@/lib/db/chat-threads";
import type { Db } from "@/lib/db/sql/client";
import { createTestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { createEngine } from "@/lib/engine/create-engine";
import type { Engine } from "@/lib/engine/engine-types";
import { createMemoryEventBus, type EventBus } from "@/lib/engine/event-bus";
import { createThreadOwnerCache, type ThreadOwnerCache } from "./thread-owner-cache";

/**
 * An engine as the app makes one (the demo model, the demo tools) over a given database: a
 * second one on the same database is another process, or the same one after a restart.
 */
export function createAppTestEngine({
  db,
  bus,
  instanceId,
}: {
  db: Db;
  bus: EventBus;
  instanceId: string;
}): Engine {
  return createEngine({
    db,
    bus,
    instanceId,
    createClient: () =>
      getAgentClient({
        config: { provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 },
        loop: AGENT_LOOP_OPTIONS,
      }),
    createToolkit: ({ userId, runId, threadId }) => createAgentToolkit({ userId, runId, threadId, db }),
    textFlushMs: 0,
  });
}

/**
 * The real engine over a real database of its own (a SQLite file unless told), driven by the
 * offline demo model and the demo tools: what the pages' server code talks to in production,
 * minus the HTTP layer.
 */
async function createTestEngine(provider: TestProvider): Promise<{
  db: Db;
  engine: Engine;
  bus: EventBus;
  threadOwners: ThreadOwnerCache;
  cleanup: () => Promise<void>;
}> {
  const { db, drop } = await createTestDatabase(provider);
  const bus = createMemoryEventBus();
  const engine = createAppTestEngine({ db, bus, instanceId: `web-test-${process.pid}` });
  return {
    db,
    engine,
    bus,
    threadOwners: createThreadOwnerCache({ db }),
    cleanup: async () => {
      await engine.idle();
      await engine.stop();
      await bus.close();
      await drop();
    },
  };
}

/**
 * Starts one test engine for the calling test file and stops it after the file's last test;
 * `onReady` hands the database and engine to the file's own variables.
 */
export function withTestEngine(
  onReady: (started: { db: Db; engine: Engine; bus: EventBus; threadOwners: ThreadOwnerCache }) => void,
  provider: TestProvider = "sqlite",
): void {
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const started = await createTestEngine(provider);
    cleanup = started.cleanup;
    onReady(started);
  });
  afterAll(() => cleanup?.());
}

export async function createTestUser(db: Db, user: SessionUser): Promise<SessionUser> {
  await db.user.create({ data: { id: user.id, email: user.email, name: user.name, role: user.role } });
  return user;
}

let userCounter = 0;

/** A distinct user per call, so tests never depend on each other's rows. */
export async function newUser(db: Db, role: SessionUser["role"]): Promise<SessionUser> {
  userCounter += 1;
  const id = `u-${role}-${userCounter}-${process.pid}`;
  return createTestUser(db, { id, email: `${id}@example.test`, name: `${role} ${userCounter}`, role });
}

export async function newThread(db: Db, owner: SessionUser): Promise<string> {
  return (await createThread({ db, userId: owner.id })).id;
}

/** Sends `text` as `owner` in a new thread and waits until the run parks on its open request. */
export async function parkRequest(
  { db, engine }: { db: Db; engine: Engine },
  { owner, text }: { owner: SessionUser; text: string },
): Promise<{ requestId: string; runId: string; threadId: string }> {
  const threadId = await newThread(db, owner);
  const { runId } = await startChatRun({ actor: owner, input: { threadId, text } }, { engine, db });
  await engine.idle();
  const row = await db.request.findFirstOrThrow({ where: { runId, status: "open" } });
  return { requestId: row.id, runId, threadId };
}
