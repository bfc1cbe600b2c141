import {
  createClientFromDriver,
  createInProcessDriver,
  createToolkit,
  defineTool,
  type ModelInput,
  pending,
} from "toolnexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEventsAfterSeq } from "@/lib/db/events";
import type { StoredCheckpoint } from "@/lib/db/runs";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { Message } from "@/lib/toolnexus/types";
import { createEngine } from "./create-engine";
import { createMemoryEventBus, type EventBus } from "./event-bus";
import { replayTranscript, seenOf } from "./testing/replay-transcript";

// A safe point is stored with the events that led to it, and only those. Here `approve` asks
// and `count` returns in the same moment, so by the time the safe point "approve waits, count
// still runs" is stored, count's result has already reached the writer. That result belongs to
// a later state: were it stored with the earlier one, the process is lost right after (its
// lease taken, exactly at that commit), and the next owner runs count again from the stored
// state, the log would hold "counted" twice and replay to more than the transcript.

function generate(input: ModelInput) {
  if (input.messages.at(-1)?.role === "tool") return { text: "finished" };
  return {
    text: "Working. ",
    toolCalls: [
      { name: "count", args: {} },
      { name: "approve", args: {} },
    ],
  };
}

/** With `gated`, count returns the moment approve asks; without, at once (a later instance). */
function tools(gated: boolean) {
  let asked: () => void = () => {};
  const approveAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  return createToolkit({
    builtins: false,
    extraTools: [
      defineTool({
        name: "count",
        description: "Returns the moment approve has asked.",
        run: async () => {
          if (gated) await approveAsked;
          return "counted";
        },
      }),
      defineTool({
        name: "approve",
        description: "Waits for a reviewer.",
        run: (_args, ctx) => {
          if (ctx?.answer) return "approved";
          asked();
          return pending({ kind: "approval", prompt: "Go ahead?" });
        },
      }),
    ],
  });
}

const createClient = () =>
  createClientFromDriver(createInProcessDriver({ model: "safe-point-model", generate }));

describe.each<TestProvider>(["sqlite", "postgres"])("events stored with a safe point on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("are those before it, so a takeover right after its commit replays to the transcript", {
    timeout: 60_000,
  }, async () => {
    const { db } = database;
    const people = await seedPeople(db);
    const inner = createMemoryEventBus();
    let lost: { slots: string[]; coversCounted: boolean } | undefined;
    // Loses the first instance the moment "counted" is committed while its run still runs there
    // (the publish is awaited before the run goes on): as if it died right after that commit.
    const bus: EventBus = {
      ...inner,
      async publish(...notices) {
        const counted = notices.find(
          (n) => n.event?.type === "tool_result" && n.event.output === "counted",
        )?.event;
        if (counted) {
          const run = await db.run.findFirstOrThrow({ where: { threadId: people.threadId } });
          if (run.status === "running") {
            const stored = run.checkpoint as unknown as StoredCheckpoint;
            lost = {
              slots: stored.slots.map((slot) => `${slot.call.name}:${slot.state.status}`),
              coversCounted: run.savedEventSeq >= counted.seq,
            };
            await db.run.update({
              where: { id: run.id },
              data: { leaseOwner: "lost-instance", leaseExpiresAt: new Date(0) },
            });
          }
        }
        return inner.publish(...notices);
      },
    };
    const first = createEngine({
      db,
      bus,
      instanceId: "first",
      createClient,
      createToolkit: () => tools(true),
    });
    const { runId } = await first.startRun({
      threadId: people.threadId,
      userId: people.owner.id,
      message: "go",
    });
    await first.idle();
    // A stored state that still waits for count accounts for no result of count.
    if (lost?.slots.includes("count:queued")) expect(lost.coversCounted).toBe(false);

    const next = createEngine({
      db,
      bus: createMemoryEventBus(),
      instanceId: "next",
      leaseMs: 500,
      recoveryIntervalMs: 50,
      idleRecoveryIntervalMs: 50,
      createClient,
      createToolkit: () => tools(false),
    });
    await next.start();
    try {
      for (let i = 0; ; i += 1) {
        const request = await db.request.findFirst({ where: { runId, status: "open" } });
        if (request) {
          await next.answerRequest({ requestId: request.id, answer: { ok: true }, actor: people.reviewer });
          break;
        }
        if (i > 400) throw new Error("the run never asked");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await next.idle();
      for (let i = 0; ; i += 1) {
        const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
        if (run.status === "done") break;
        if (i > 400) throw new Error(`the run did not finish (${run.status})`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await next.stop();
    }

    const rows = await db.message.findMany({ where: { threadId: people.threadId }, orderBy: { seq: "asc" } });
    const transcript = rows.map((row) => seenOf(row.content as unknown as Message));
    expect(transcript.filter((m) => m.role === "tool" && m.content === "counted")).toHaveLength(1);
    const events = await listEventsAfterSeq({ db, threadId: people.threadId, afterSeq: 0 });
    expect(replayTranscript(events)).toEqual(transcript);
  });
});
