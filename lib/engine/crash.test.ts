import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEventsAfterSeq } from "@/lib/db/events";
import { type People, seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { seededRandom } from "@/lib/toolnexus/testing/seeded-random";
import type { Message } from "@/lib/toolnexus/types";
import { replayTranscript, seenOf } from "./testing/replay-transcript";
import type { ToolExecution } from "./testing/scripted-agent";
import { type Child, killEngineChildren, spawnEngineChild } from "./testing/spawn-child";

// App instances are SIGKILLed at random points of a set of runs — while the model streams,
// while a tool works, between a suspension and its park, right after an answer was accepted —
// and the next instance carries on. Every run must finish, every accepted answer must reach
// its tool, a tool may run again only under the same idempotency key, and each thread's event
// log must replay to exactly its final transcript. The seed is printed; CRASH_SEED replays one.

type KillPoint = "model" | "tool" | "pending" | "answered";

const RUNS_PER_INSTANCE = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each<TestProvider>(["sqlite", "postgres"])("instances killed at random points on %s", (provider) => {
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

  it("finishes every run, loses no answer, repeats no side effect and replays every log", {
    timeout: 180_000,
  }, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`crash test on ${provider}: seed ${seed} (CRASH_SEED=${seed} replays it)`);
    const random = seededRandom(seed);
    const points: KillPoint[] = ["model", "tool", "pending", "answered"];
    for (let i = points.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [points[i], points[j]] = [points[j]!, points[i]!];
    }
    const maxDelay: Record<KillPoint, number> = { model: 40, tool: 25, pending: 3, answered: 5 };
    const logFile = path.join(dir, "executions.jsonl");
    const threads: (People & { threadId: string; runId?: string })[] = [];
    const notes = new Map<string, string>();
    const killedAt: string[] = [];

    // One instance per kill point, then one that is left to finish everything.
    for (const point of [...points, null]) {
      const worker: Child = spawnEngineChild(
        { DATABASE_URL: database.url, LOG_FILE: logFile },
        "crash-worker.ts",
      );
      await worker.waitFor(/^ready$/);
      let killing: Promise<void> | undefined;
      if (point) {
        worker.onLine((line) => {
          if (killing || !line.startsWith(point)) return;
          killing = sleep(Math.floor(random() * (maxDelay[point] + 1))).then(() => {
            worker.process.kill("SIGKILL");
            killedAt.push(point);
          });
        });
      }
      // A start the last instance died before storing is sent again (a stored one is not).
      const started = await database.db.run.findMany({ select: { threadId: true } });
      for (const [index, people] of threads.entries()) {
        if (started.some((run) => run.threadId === people.threadId)) continue;
        worker.send(
          JSON.stringify({
            start: { threadId: people.threadId, userId: people.owner.id, message: `run ${index + 1}` },
          }),
        );
      }
      for (let i = 0; i < RUNS_PER_INSTANCE && point; i += 1) {
        const people = await seedPeople(database.db);
        threads.push(people);
        worker.send(
          JSON.stringify({
            start: { threadId: people.threadId, userId: people.owner.id, message: `run ${threads.length}` },
          }),
        );
      }
      // Answer whatever is open, through this instance, until it is killed (or, for the last
      // one, until every run is done).
      const sent = new Set<string>();
      const deadline = Date.now() + (point ? 10_000 : 60_000);
      for (;;) {
        if (worker.process.exitCode !== null || worker.process.signalCode !== null) break;
        const runs = await database.db.run.findMany({
          where: { threadId: { in: threads.map((t) => t.threadId) } },
          select: { status: true },
        });
        if (!point && runs.length === threads.length && runs.every((run) => run.status === "done")) break;
        if (Date.now() > deadline) {
          if (point) break;
          throw new Error(`runs still unfinished: ${runs.map((run) => run.status).join(", ")}`);
        }
        const open = await database.db.request.findMany({
          where: { status: "open" },
          select: { id: true, threadId: true },
        });
        for (const request of open) {
          if (sent.has(request.id)) continue;
          sent.add(request.id);
          const reviewer = threads.find((t) => t.threadId === request.threadId)!.reviewer;
          const note = notes.get(request.id) ?? `note-${request.id}`;
          notes.set(request.id, note);
          worker.send(
            JSON.stringify({
              answer: { requestId: request.id, actor: reviewer, answer: { ok: true, data: { note } } },
            }),
          );
        }
        await sleep(25);
      }
      await killing;
      if (worker.process.exitCode === null && worker.process.signalCode === null)
        worker.process.kill("SIGKILL");
      await worker.exited;
    }
    console.log(
      `crash test on ${provider}: killed ${killedAt.join(", ") || "nowhere"} of ${points.join(", ")}`,
    );

    const executions = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ToolExecution);
    for (const { threadId } of threads) {
      const run = await database.db.run.findFirstOrThrow({ where: { threadId } });
      expect(run.status, `run ${run.id}`).toBe("done");
      const rows = await database.db.message.findMany({ where: { threadId }, orderBy: { seq: "asc" } });
      const transcript = rows.map((row) => seenOf(row.content as unknown as Message));
      const events = await listEventsAfterSeq({ db: database.db, threadId, afterSeq: 0, limit: 10_000 });
      expect(replayTranscript(events), `the log of run ${run.id}`).toEqual(transcript);

      // The one accepted answer reached the tool, and the transcript says so.
      const [request, ...more] = await database.db.request.findMany({
        where: { runId: run.id },
        include: { answer: true },
      });
      expect(more).toHaveLength(0);
      expect(request!.status).toBe("answered");
      const note = (request!.answer!.data as { note: string }).note;
      expect(note).toBe(notes.get(request!.id));
      expect(transcript).toContainEqual(
        expect.objectContaining({ role: "tool", content: `approved ${note}` }),
      );

      // Repeats happen only under one key per call: a tool with idempotency handling runs once.
      const ofRun = executions.filter((entry) => entry.idempotencyKey?.startsWith(`${run.id}:`));
      const countKeys = new Set(
        ofRun.filter((entry) => entry.tool === "count").map((entry) => entry.idempotencyKey),
      );
      expect(countKeys.size).toBe(1);
      for (const retry of ofRun.filter((entry) => entry.tool === "approve" && entry.answer)) {
        expect(retry.answer).toMatchObject({ ok: true, data: { note } });
      }
    }
    expect(executions.every((entry) => typeof entry.idempotencyKey === "string")).toBe(true);
  });
});
