import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbClient } from "@/lib/db/db-types";
import { listEventsAfterSeq } from "@/lib/db/events";
import { createDb } from "@/lib/db/sql/client";
import { isDatabaseUnavailable } from "@/lib/db/sql/database-unavailable";
import { type CuttableProxy, startCuttableProxy, throughProxy } from "@/lib/db/testing/cuttable-proxy";
import { type People, seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase } from "@/lib/db/testing/test-database";
import type { Engine } from "./engine-types";
import { createMemoryEventBus } from "./event-bus";
import { makeTestEngine, readRunState, rejection } from "./testing/engine-fixture";
import { createOutageClient, streamWords, waitForRunsToEnd } from "./testing/outage-agent";
import { replayTranscript, seenOf } from "./testing/replay-transcript";
import { memoryLog } from "./testing/scripted-agent";

// Two instances on one PostgreSQL, reached through a proxy the test cuts as a restart would:
// every connection dropped, new ones refused for a while. Runs in flight pause and finish;
// none fails because the database was away (ADR 0060).

const STREAMING = 10;
const PARKED = 5;

describe("a database restart under two instances (postgres)", () => {
  let database: TestDatabase;
  let proxy: CuttableProxy;
  const clients: DbClient[] = [];
  const engines: Engine[] = [];

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    proxy = await startCuttableProxy({ host: "127.0.0.1", port: Number(new URL(database.url).port || 5432) });
  });
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.stop()));
    await Promise.all(clients.map((client) => client.$disconnect()));
    await proxy?.close();
    await database?.drop();
  });

  it("pauses the runs in flight and finishes all of them, each once", { timeout: 60_000 }, async () => {
    const log = memoryLog();
    const bus = createMemoryEventBus();
    for (let i = 0; i < 2; i += 1) {
      const db = createDb({ url: throughProxy(database.url, proxy), poolMax: 8 });
      clients.push(db);
      const engine = makeTestEngine({
        db,
        log,
        bus,
        createClient: createOutageClient({ wordMs: 150 }),
        // The default lease (3 s) outlives the outage: nothing takes a run over while it lasts,
        // so whatever the instance driving it does once the database is back decides its fate.
        recoveryIntervalMs: 200,
      });
      engines.push(engine);
      await engine.start();
    }
    const start = async (i: number, message: string) => {
      const people = await seedPeople(database.db);
      const engine = engines[i % 2]!;
      const { runId } = await engine.startRun({
        threadId: people.threadId,
        userId: people.owner.id,
        message,
      });
      return { runId, people };
    };

    const parked: { runId: string; people: People }[] = [];
    for (let i = 0; i < PARKED; i += 1) parked.push(await start(i, `approve ${i}`));
    await Promise.all(engines.map((engine) => engine.idle()));
    const approvals = await database.db.request.findMany({
      where: { runId: { in: parked.map((p) => p.runId) } },
    });
    expect(approvals).toHaveLength(PARKED);

    const streaming = await Promise.all(Array.from({ length: STREAMING }, (_, i) => start(i, `stream ${i}`)));
    // Every streaming run is a few words into its answer (which takes 4.5 s) when the database goes.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const outage = proxy.cut(2_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await rejection(
      engines[0]!.answerRequest({
        requestId: approvals[0]!.id,
        actor: parked[0]!.people.reviewer,
        answer: { ok: true },
      }),
    );
    expect(isDatabaseUnavailable(during)).toBe(true);
    await outage;

    // Answers after the restart, on either instance.
    for (const [i, approval] of approvals.entries()) {
      const reviewer = parked.find((p) => p.runId === approval.runId)!.people.reviewer;
      await engines[i % 2]!.answerRequest({ requestId: approval.id, actor: reviewer, answer: { ok: true } });
    }

    const eventsOf = (threadId: string) =>
      listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0, limit: 10_000 });
    const all = [...parked, ...streaming].map((p) => p.runId);
    const statuses = await waitForRunsToEnd(database.db, all, 40_000);
    expect([...statuses.values()].filter((status) => status !== "done")).toEqual([]);

    for (const { runId } of streaming) {
      const state = await readRunState(database.db, runId);
      const seen = state.messages.map(seenOf);
      expect(seen.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
      expect(seen[1]).toMatchObject({ content: streamWords.join("") });
      expect(seen[3]).toMatchObject({ content: "finished: counted" });
      // What the chat replays from the log is the stored transcript: nothing lost, nothing twice.
      expect(replayTranscript(await eventsOf(state.run.threadId))).toEqual(seen);
    }
    for (const { runId } of parked) {
      const state = await readRunState(database.db, runId);
      expect(state.requests).toHaveLength(1);
      expect(state.requests[0]!.answer).toMatchObject({ ok: true });
      expect(state.messages.at(-1)).toEqual({ role: "assistant", content: "finished: approved" });
      expect(replayTranscript(await eventsOf(state.run.threadId))).toEqual(state.messages.map(seenOf));
    }
    // The side effect after the stream ran once per run; each approval was answered once.
    expect(log.entries.filter((entry) => entry.tool === "count")).toHaveLength(STREAMING);
    expect(await database.db.answer.count()).toBe(PARKED);
    expect(log.entries.filter((entry) => entry.tool === "approve" && entry.answer)).toHaveLength(PARKED);
  });
});
