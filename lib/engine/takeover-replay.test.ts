import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEventsAfterSeq } from "@/lib/db/events";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { Message } from "@/lib/toolnexus/types";
import { makeTestEngine } from "./testing/engine-fixture";
import { replayTranscript, seenOf } from "./testing/replay-transcript";
import { memoryLog } from "./testing/scripted-agent";
import { killEngineChildren, spawnEngineChild } from "./testing/spawn-child";

// A process dies while the model is streaming its answer; the text it streamed is in the log.
// The peer that takes over asks the model again, and the log must still replay to exactly the
// transcript: the dead segment's partial text is superseded, not shown next to the new one.

describe.each<TestProvider>(["sqlite", "postgres"])("the log after a takeover on %s", (provider) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    dir = mkdtempSync(path.join(tmpdir(), "toolnexus-replay-"));
  });
  afterAll(async () => {
    killEngineChildren();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("replays to the final transcript, without the dead segment's text", { timeout: 90_000 }, async () => {
    const people = await seedPeople(database.db);
    const child = spawnEngineChild({
      DATABASE_URL: database.url,
      LOG_FILE: path.join(dir, `${randomUUID()}.jsonl`),
      MODE: "hold",
      LEASE_MS: "1000",
      THREAD_ID: people.threadId,
      USER_ID: people.owner.id,
      MESSAGE: "drip slowly",
    });
    const runId = (await child.waitFor(/^started /)).split(" ")[1]!;
    for (let i = 0; ; i += 1) {
      const texts = await database.db.event.count({ where: { runId, type: "text" } });
      if (texts >= 3) break;
      if (i > 500) throw new Error("the model never streamed");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.process.kill("SIGKILL");
    await child.exited;

    const peer = makeTestEngine({
      db: database.db,
      log: memoryLog(),
      leaseMs: 1_000,
      recoveryIntervalMs: 100,
    });
    await peer.start();
    for (let i = 0; ; i += 1) {
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      if (run.status === "done") break;
      if (i > 1_500) throw new Error(`the run did not finish (${run.status})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await peer.stop();

    const events = await listEventsAfterSeq({ db: database.db, threadId: people.threadId, afterSeq: 0 });
    expect(events.some((event) => event.type === "superseded")).toBe(true);
    const rows = await database.db.message.findMany({
      where: { threadId: people.threadId },
      orderBy: { seq: "asc" },
    });
    const transcript = rows.map((row) => seenOf(row.content as unknown as Message));
    expect(replayTranscript(events)).toEqual(transcript);
    expect(transcript.filter((message) => message.role === "assistant")).toHaveLength(2);
  });
});
