import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import type { Engine } from "./engine-types";
import { createMemoryEventBus, type EventBus } from "./event-bus";
import { createPostgresEventBus } from "./postgres-event-bus";
import { makeTestEngine } from "./testing/engine-fixture";
import { memoryLog } from "./testing/scripted-agent";
import { killEngineChildren, spawnEngineChild } from "./testing/spawn-child";

// An app instance dies (or is told to stop) in the middle of a run, and a warm peer on default
// settings carries on. ADR 0022 sets the bounds: under 5 s from kill -9 to the resumed run's
// first event, and no wait for a lease at all after SIGTERM.

describe.each<TestProvider>(["sqlite", "postgres"])("taking over a run on %s", (provider) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    dir = mkdtempSync(path.join(tmpdir(), "toolnexus-takeover-"));
  });
  afterAll(async () => {
    killEngineChildren();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const peerOn = async (): Promise<{ engine: Engine; bus: EventBus }> => {
    const bus =
      provider === "postgres"
        ? await createPostgresEventBus({ connectionString: database.url, instanceId: `peer-${randomUUID()}` })
        : createMemoryEventBus();
    const engine = makeTestEngine({ db: database.db, log: memoryLog(), bus });
    await engine.start();
    return { engine, bus };
  };

  /** When the first event after `afterSeq` of the run lands, polled every 20 ms. */
  const firstEventAfter = async (runId: string, afterSeq: number) => {
    for (let i = 0; i < 1_000; i += 1) {
      const event = await database.db.event.findFirst({ where: { runId, seq: { gt: afterSeq } } });
      if (event) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the run was never resumed");
  };

  const holdRun = async (extra: Record<string, string> = {}) => {
    const people = await seedPeople(database.db);
    const child = spawnEngineChild({
      ...extra,
      DATABASE_URL: database.url,
      LOG_FILE: path.join(dir, `${randomUUID()}.jsonl`),
      MODE: "hold",
      THREAD_ID: people.threadId,
      USER_ID: people.owner.id,
      MESSAGE: "block now",
    });
    const runId = (await child.waitFor(/^started /)).split(" ")[1]!;
    await child.waitFor(/^blocked slow/);
    const last = await database.db.event.findFirst({ where: { runId }, orderBy: { seq: "desc" } });
    return { child, runId, lastSeq: last!.seq };
  };

  const finished = async (runId: string) => {
    for (let i = 0; i < 500; i += 1) {
      const run = await database.db.run.findUniqueOrThrow({ where: { id: runId } });
      if (run.status === "done") return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the run did not finish");
  };

  it("resumes a run within 5 s of its instance's kill -9", { timeout: 90_000 }, async () => {
    // Across PostgreSQL the peer is warm before the run starts and hears of it on the bus;
    // SQLite has no bus between processes, so there the peer comes up while the run is live.
    const early = provider === "postgres" ? await peerOn() : undefined;
    const { child, runId, lastSeq } = await holdRun();
    const peer = early ?? (await peerOn());
    child.process.kill("SIGKILL");
    const killedAt = Date.now();
    await child.exited;
    const resumedAt = await firstEventAfter(runId, lastSeq);
    expect(resumedAt - killedAt).toBeLessThan(5_000);
    await finished(runId);
    await peer.engine.stop();
    await peer.bus.close();
  });

  it("hands a run over at once on SIGTERM", { timeout: 90_000 }, async () => {
    const early = provider === "postgres" ? await peerOn() : undefined;
    // A lease far longer than the test: only the handover can let the peer in.
    const { child, runId, lastSeq } = await holdRun({ LEASE_MS: "120000" });
    const peer = early ?? (await peerOn());
    child.process.kill("SIGTERM");
    const terminatedAt = Date.now();
    expect(await child.exited).toBe(143);
    const resumedAt = await firstEventAfter(runId, lastSeq);
    // A released lease is taken on the peer's next look (1 s while runs are live), and on
    // PostgreSQL at once on the bus's word; the margin is for a loaded machine.
    expect(resumedAt - terminatedAt).toBeLessThan(4_000);
    await finished(runId);
    await peer.engine.stop();
    await peer.bus.close();
  });
});
