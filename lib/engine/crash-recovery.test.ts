import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { unbalancedReason } from "@/lib/toolnexus/testing/balanced-transcript";
import { makeTestEngine, readRunState } from "./testing/engine-fixture";
import { memoryLog, type ToolExecution } from "./testing/scripted-agent";
import { killEngineChildren, spawnEngineChild } from "./testing/spawn-child";

describe.each<TestProvider>(["sqlite", "postgres"])("crash recovery on %s", (provider) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    dir = mkdtempSync(path.join(tmpdir(), "toolnexus-crash-"));
  });
  afterAll(async () => {
    killEngineChildren();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finishes a run killed mid-tool and a run killed right after its answer was claimed", {
    timeout: 120_000,
  }, async () => {
    const logFile = path.join(dir, "executions.jsonl");
    const base = { DATABASE_URL: database.url, LOG_FILE: logFile };

    // Run B parks here, waiting for a reviewer.
    const first = await seedPeople(database.db);
    const second = await seedPeople(database.db);
    const parking = makeTestEngine({ db: database.db, log: memoryLog() });
    const { runId: runB } = await parking.startRun({
      threadId: second.threadId,
      userId: second.owner.id,
      message: "block-after-answer please",
    });
    await parking.idle();
    await parking.stop();
    const [approval] = (await readRunState(database.db, runB)).requests;

    // Run A: a process starts it and dies inside a tool.
    const starter = spawnEngineChild({
      ...base,
      MODE: "start",
      THREAD_ID: first.threadId,
      USER_ID: first.owner.id,
      MESSAGE: "block now",
    });
    const runA = (await starter.waitFor(/^started /)).split(" ")[1]!;
    await starter.waitFor(/^blocked slow/);
    starter.process.kill("SIGKILL");
    await starter.exited;

    // Run B: a process claims the reviewer's answer, resumes, and dies in the retried tool.
    const answerer = spawnEngineChild({
      ...base,
      MODE: "answer",
      REQUEST_ID: approval!.id,
      ACTOR: JSON.stringify(second.reviewer),
      ANSWER: JSON.stringify({ ok: true, data: { note: "go" } }),
    });
    await answerer.waitFor(/^blocked approve_then_block/);
    answerer.process.kill("SIGKILL");
    await answerer.exited;

    const stranded = await database.db.run.findMany({ where: { id: { in: [runA, runB] } } });
    expect(stranded.map((run) => run.status)).toEqual(["running", "running"]);

    // A new process takes both over once their leases lapse.
    const rescuer = spawnEngineChild({ ...base, MODE: "recover", RUN_IDS: `${runA},${runB}` });
    await rescuer.waitFor(/^recovered/);
    expect(await rescuer.exited).toBe(0);

    const log = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ToolExecution);
    const a = await readRunState(database.db, runA);
    expect(a.run.status).toBe("done");
    expect(a.messages.at(-1)).toEqual({ role: "assistant", content: "finished: slow work done" });
    expect(unbalancedReason(a.messages)).toBeUndefined();
    const slowKeys = log.filter((entry) => entry.tool === "slow").map((entry) => entry.idempotencyKey);
    expect(slowKeys).toHaveLength(2);
    expect(new Set(slowKeys).size).toBe(1);

    const b = await readRunState(database.db, runB);
    expect(b.run.status).toBe("done");
    expect(b.messages.at(-1)).toEqual({ role: "assistant", content: "finished: approved and done" });
    expect(b.requests).toHaveLength(1);
    expect(b.requests[0]!.answer).toMatchObject({
      actorId: second.reviewer.id,
      ok: true,
      data: { note: "go" },
    });
    const retries = log.filter((entry) => entry.tool === "approve_then_block" && entry.answer);
    expect(retries).toHaveLength(2);
    for (const retry of retries) {
      expect(retry.answer).toEqual({ id: approval!.requestId, ok: true, data: { note: "go" } });
    }
  });
});
