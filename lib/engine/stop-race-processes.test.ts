import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPeople } from "@/lib/db/testing/seed-people";
import { createTestDatabase, type TestDatabase, type TestProvider } from "@/lib/db/testing/test-database";
import { appErrorCatalog } from "@/lib/errors";
import { readRunState } from "./testing/engine-fixture";
import { type Outcome, type RaceInstance, startRaceInstance } from "./testing/race-instances";
import { killEngineChildren } from "./testing/spawn-child";

// Two app instances, each a process with its own engine and database client, race a Stop (the
// owner's, or an admin's from /admin/runs) against ten approvals of the same parked call, and an
// expiry against an answer. Every round must tell exactly one story, whoever the database takes
// first (ADR 0055):
// - Stop wins: the call never runs, its request is cancelled, and every approval is refused
//   with a message that says the run was stopped before it, so the call never ran;
// - an approval wins: the call runs once and its result is in the log, the other approvals are
//   refused as answered already, and the Stop is refused with a message that says the call had
//   started and the run goes on.
// A Stop that reports success therefore always means the approved call did not run.

const ROUNDS = 12;
// Where the Stop fires against the approvals (ms): from clearly before to clearly after, with
// most of them where the two land together.
const STOP_OFFSETS = [-40, -20, -12, -8, -5, -3, -2, -1, 0, 2, 5, 40];
const EXPIRY_OFFSETS = [-40, -6, -3, -2, -1, 0, 0, 1, 2, 4, 40, -12];
// How long the approved call works. A Stop that reaches the database only after the call's result
// is stored finds a run it may stop again (ADR 0055), which is no race; the call outlasts any Stop
// fired near the approvals by far.
const BLOCK_MS = 600;

const message = (code: keyof typeof appErrorCatalog) => appErrorCatalog[code].message;

describe.each<TestProvider>(["sqlite", "postgres"])("two engine processes racing on %s", (provider) => {
  let database: TestDatabase;
  let dir: string;
  let instances: RaceInstance[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    dir = mkdtempSync(path.join(tmpdir(), "toolnexus-race-"));
    instances = await Promise.all(
      ["a", "b"].map((name) => startRaceInstance({ url: database.url, dir, name, blockMs: BLOCK_MS })),
    );
    // A process's first cancel compiles its statements and can take longer than the approved
    // call works; each instance stops one run first, so the rounds measure the race alone.
    for (const instance of instances) {
      const { people, runId } = await parkedRun("block-after-answer warm-up");
      expect(await instance.call({ op: "cancel", runId, actor: people.owner })).toEqual({
        ok: true,
        value: null,
      });
    }
  }, 90_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.exit()));
    killEngineChildren();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const idle = () => Promise.all(instances.map((instance) => instance.call({ op: "idle" })));
  const executionsOf = (runId: string, tool: string) =>
    instances.flatMap((instance) =>
      instance
        .executions()
        .filter(
          (entry) => entry.tool === tool && entry.answer && entry.idempotencyKey?.startsWith(`${runId}:`),
        ),
    );
  async function parkedRun(text: string) {
    const people = await seedPeople(database.db);
    const started = await instances[0]!.call({
      op: "start",
      threadId: people.threadId,
      userId: people.owner.id,
      message: text,
    });
    if (!started.ok) throw new Error(started.message);
    await idle();
    const { runId } = started.value as { runId: string };
    const [request] = (await readRunState(database.db, runId)).requests;
    expect(request?.status).toBe("open");
    return { people, runId, request: request! };
  }
  async function toolResultsOf(runId: string, name: string) {
    const { events } = await readRunState(database.db, runId);
    return events
      .filter((event) => event.type === "tool_result")
      .map((event) => event.payload as { name: string; output: string; isError: boolean })
      .filter((payload) => payload.name === name);
  }

  for (const who of ["owner", "admin"] as const) {
    it(`a Stop by the ${who} against ten approvals tells one story a round`, {
      timeout: 150_000,
    }, async () => {
      const stories = { stopped: 0, approved: 0 };
      for (let round = 0; round < ROUNDS; round += 1) {
        const { people, runId, request } = await parkedRun("block-after-answer please");
        const at = Date.now() + 150;
        const approvals = Array.from({ length: 10 }, (_, i) =>
          instances[i % 2]!.call({
            op: "answer",
            requestId: request.id,
            actor: people.reviewer,
            answer: { ok: true, data: { note: `go ${i}` } },
            at: at + (i % 3),
          }),
        );
        const stop = instances[round % 2]!.call({
          op: "cancel",
          runId,
          actor: people[who],
          at: at + STOP_OFFSETS[round % STOP_OFFSETS.length]!,
        });
        const [stopped, ...answered] = await Promise.all([stop, ...approvals]);
        await idle();
        const state = await readRunState(database.db, runId);
        const results = await toolResultsOf(runId, "approve_then_block");
        const ran = executionsOf(runId, "approve_then_block");
        const finished = state.events.filter((event) => event.type === "run_finished");
        const accepted = answered.filter((outcome) => outcome.ok);
        const context = JSON.stringify({
          round,
          stopped,
          answered: answered.map((outcome) => (outcome.ok ? "accepted" : outcome.code)),
          run: state.run.status,
          request: state.requests[0]!.status,
          results,
          ran: ran.length,
          events: state.events.map((event) => event.type),
        });
        if (stopped.ok) {
          stories.stopped += 1;
          expect(accepted, context).toHaveLength(0);
          for (const outcome of answered) {
            expect(outcome, context).toEqual<Outcome>({
              ok: false,
              code: "conflict:run_stopped",
              message: message("conflict:run_stopped"),
            });
          }
          expect(state.run.status, context).toBe("cancelled");
          expect(state.requests[0]!.status, context).toBe("cancelled");
          expect(results, context).toEqual([]);
          expect(ran, context).toEqual([]);
          expect(finished.map((event) => (event.payload as { status: string }).status)).toEqual([
            "cancelled",
          ]);
        } else {
          stories.approved += 1;
          // Refused because the call had started; or, when the Stop's write reached the database
          // only after the run had finished (SQLite's writers queue), because the run had ended.
          const late = !stopped.ok && stopped.code === "conflict:run_finished";
          const code = late ? "conflict:run_finished" : "conflict:calls_started";
          expect(stopped, context).toEqual<Outcome>({ ok: false, code, message: message(code) });
          expect(accepted, context).toHaveLength(1);
          expect(accepted[0]!.ok && accepted[0]!.value, context).toMatchObject({
            request: { id: request.id, status: "answered" },
          });
          for (const outcome of answered.filter((each) => !each.ok)) {
            expect(outcome, context).toEqual<Outcome>({
              ok: false,
              code: "conflict:answer",
              message: message("conflict:answer"),
            });
          }
          expect(state.run.status, context).toBe("done");
          expect(state.requests[0]!.status, context).toBe("answered");
          expect(results, context).toEqual([
            expect.objectContaining({ output: "approved and done", isError: false }),
          ]);
          expect(ran, context).toHaveLength(1);
          expect(finished.map((event) => (event.payload as { status: string }).status)).toEqual(["done"]);
        }
      }
      console.log(`${provider}, ${who}'s Stop against approvals: ${JSON.stringify(stories)}`);
      // The offsets run from clearly before the approvals to clearly after them: both stories occur.
      expect(stories.stopped).toBeGreaterThan(0);
      expect(stories.approved).toBeGreaterThan(0);
    });
  }

  it("an expiry against an answer tells one story a round", { timeout: 150_000 }, async () => {
    const stories = { expired: 0, answered: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const { people, runId, request } = await parkedRun("approve-soon 300");
      const due = request.expiresAt!.getTime();
      const [answered, expired] = await Promise.all([
        instances[round % 2]!.call({
          op: "answer",
          requestId: request.id,
          actor: people.reviewer,
          answer: { ok: true },
          at: due + EXPIRY_OFFSETS[round % EXPIRY_OFFSETS.length]!,
        }),
        instances[(round + 1) % 2]!.call({ op: "expire", at: due }),
      ]);
      await idle();
      const state = await readRunState(database.db, runId);
      const results = await toolResultsOf(runId, "approve_soon");
      const ran = executionsOf(runId, "approve_soon");
      const context = JSON.stringify({ round, answered, expired, status: state.run.status });
      expect(expired.ok, context).toBe(true);
      expect(state.run.status, context).toBe("done");
      // One resolution is recorded, whichever it was.
      expect(await database.db.answer.count({ where: { requestRowId: request.id } }), context).toBe(1);
      if (answered.ok) {
        stories.answered += 1;
        // The sweep found nothing to expire: an accepted answer is never then reported expired.
        expect(expired, context).toEqual({ ok: true, value: 0 });
        expect(answered.value, context).toMatchObject({ request: { status: "answered" } });
        expect(state.requests[0]!.status, context).toBe("answered");
        expect(results, context).toEqual([expect.objectContaining({ output: "approved in time" })]);
        expect(ran, context).toHaveLength(1);
      } else {
        stories.expired += 1;
        expect(answered, context).toEqual<Outcome>({
          ok: false,
          code: "expired:request",
          message: message("expired:request"),
        });
        expect(state.requests[0]!.status, context).toBe("expired");
        expect(results.map((result) => result.output).join(), context).not.toContain("approved in time");
        expect(ran, context).toEqual([]);
      }
    }
    console.log(`${provider}, an expiry against an answer: ${JSON.stringify(stories)}`);
    expect(stories.expired).toBeGreaterThan(0);
    expect(stories.answered).toBeGreaterThan(0);
  });
});
