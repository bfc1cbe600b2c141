import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { makeTestEngine, type People, readRunState, rejection, seedPeople } from "./testing/engine-fixture";
import { memoryLog } from "./testing/scripted-agent";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

describe.each<TestProvider>(["sqlite", "postgres"])("answering requests on %s", (provider) => {
  let database: TestDatabase;
  let people: People & { threadId: string };

  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const freshThread = async () => {
    people = await seedPeople(database.db);
    return people.threadId;
  };

  it("refuses unknown ids, wrong actors and invalid data with typed errors and changes nothing", async () => {
    const threadId = await freshThread();
    const engine = makeTestEngine({ db: database.db, log: memoryLog() });
    const { runId } = await engine.startRun({ threadId, userId: people.owner.id, message: "pair again" });
    await engine.idle();
    const before = await readRunState(database.db, runId);
    const [approval, input] = before.requests;

    const attempts: [Promise<unknown>, string][] = [
      [
        engine.answerRequest({ requestId: "no-such-request", answer: { ok: true }, actor: people.owner }),
        "not_found:request",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { name: "Eve" } },
          actor: people.stranger,
        }),
        "forbidden:request",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { name: "Rex" } },
          actor: people.reviewer,
        }),
        "forbidden:request",
      ],
      [
        engine.answerRequest({ requestId: approval!.id, answer: { ok: true }, actor: people.owner }),
        "forbidden:request",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { name: "X" } },
          actor: people.owner,
        }),
        "invalid:answer",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { nick: "Al" } },
          actor: people.owner,
        }),
        "invalid:answer",
      ],
      [
        engine.answerRequest({ requestId: input!.id, answer: { ok: "yes" }, actor: people.owner }),
        "bad_request:input",
      ],
    ];
    for (const [attempt, code] of attempts) {
      const error = await rejection(attempt);
      expect(isAppError(error) && error.code).toBe(code);
    }
    await engine.idle();
    const after = await readRunState(database.db, runId);
    expect(after.run.status).toBe("pending");
    expect(after.requests.map((r) => [r.status, r.answer])).toEqual([
      ["open", null],
      ["open", null],
    ]);
    expect(after.events).toHaveLength(before.events.length);
    await engine.stop();
  });

  it("answers an expired request as the system, refuses late answers, and resumes with the decline", async () => {
    const threadId = await freshThread();
    const log = memoryLog();
    const engine = makeTestEngine({ db: database.db, log });
    const { runId } = await engine.startRun({ threadId, userId: people.owner.id, message: "expiring soon" });
    await engine.idle();
    const [request] = (await readRunState(database.db, runId)).requests;
    expect(request!.status).toBe("open");

    const error = await rejection(
      engine.answerRequest({ requestId: request!.id, answer: { ok: true }, actor: people.owner }),
    );
    expect(isAppError(error, "expired:request")).toBe(true);
    await engine.idle();
    const done = await readRunState(database.db, runId);
    expect(done.requests[0]!.status).toBe("expired");
    expect(done.requests[0]!.answer).toMatchObject({ actorId: null, ok: false, reason: "expired" });
    expect(done.run.status).toBe("done");
    expect(done.messages.at(-1)).toEqual({
      role: "assistant",
      content: "finished: declined/expired: Quick!",
    });
    expect(log.entries.filter((e) => e.answer)).toHaveLength(0);

    const again = await rejection(
      engine.answerRequest({ requestId: request!.id, answer: { ok: true }, actor: people.owner }),
    );
    expect(isAppError(again, "expired:request")).toBe(true);
    await engine.stop();
  });

  it("expires due requests on its timer", async () => {
    const threadId = await freshThread();
    const engine = makeTestEngine({ db: database.db, log: memoryLog(), expiryIntervalMs: 20 });
    const { runId } = await engine.startRun({ threadId, userId: people.owner.id, message: "expiring again" });
    await engine.idle();
    await engine.start();
    const seen: string[] = [];
    for await (const event of engine.subscribe({ threadId })) {
      seen.push(event.type);
      if (event.type === "run_finished") break;
    }
    await engine.stop();
    expect(seen).toContain("request_resolved");
    expect((await readRunState(database.db, runId)).run.status).toBe("done");
  });
});
