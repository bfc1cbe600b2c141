import { describe, expect, it } from "vitest";
import type { BareRequest } from "@/lib/db/requests";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("answering requests on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("refuses unknown ids, wrong actors and data that misses the schema with typed errors and changes nothing", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair again" });
    const before = await readRunState(suite.database.db, runId);
    const [approval, input] = before.requests;

    const attempts: [Promise<unknown>, string][] = [
      [
        engine.answerRequest({
          requestId: "no-such-request",
          answer: { ok: true },
          actor: suite.people.owner,
        }),
        "not_found:request",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { name: "Eve" } },
          actor: suite.people.stranger,
        }),
        // Refused as if unknown: the stranger cannot tell the id exists.
        "not_found:request",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { name: "Rex" } },
          actor: suite.people.reviewer,
        }),
        "not_found:request",
      ],
      [
        engine.answerRequest({ requestId: approval!.id, answer: { ok: true }, actor: suite.people.owner }),
        "forbidden:request",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { name: "X" } },
          actor: suite.people.owner,
        }),
        "invalid:answer",
      ],
      [
        engine.answerRequest({
          requestId: input!.id,
          answer: { ok: true, data: { nick: "Al" } },
          actor: suite.people.owner,
        }),
        "invalid:answer",
      ],
    ];
    // Every refusal is caught as it is made: they all run at once, and any may come first.
    const refusals = attempts.map(([attempt, code]) => [rejection(attempt), code] as const);
    for (const [refusal, code] of refusals) {
      const error = await refusal;
      expect(isAppError(error) && error.code).toBe(code);
    }
    await engine.idle();
    const after = await readRunState(suite.database.db, runId);
    expect(after.run.status).toBe("pending");
    expect(after.requests.map((r) => [r.status, r.answer])).toEqual([
      ["open", null],
      ["open", null],
    ]);
    expect(after.events).toHaveLength(before.events.length);
    await engine.stop();
  });

  it("asks a function answer only once the actor may answer the open request, then checks what it returns", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair again" });
    const [, input] = (await readRunState(suite.database.db, runId)).requests;
    const asked: string[] = [];
    const answerWith = (name: string) => (request: BareRequest) => {
      asked.push(request.id);
      return { ok: true, data: { name } };
    };

    const stranger = await rejection(
      engine.answerRequest({ requestId: input!.id, actor: suite.people.stranger, answer: answerWith("Eve") }),
    );
    expect(isAppError(stranger, "not_found:request")).toBe(true);
    expect(asked).toEqual([]);

    const invalid = await rejection(
      engine.answerRequest({ requestId: input!.id, actor: suite.people.owner, answer: answerWith("X") }),
    );
    expect(isAppError(invalid, "invalid:answer")).toBe(true);
    const { request } = await engine.answerRequest({
      requestId: input!.id,
      actor: suite.people.owner,
      answer: answerWith("Cy"),
    });
    expect(asked).toEqual([input!.id, input!.id]);
    expect([request.status, request.answer?.data]).toEqual(["answered", { name: "Cy" }]);
    await engine.idle();
    await engine.stop();
  });

  it("resumes the tool with the answer as stored, whether it was just given here or read back", async () => {
    const { engine, log, runId } = await startRunOnFreshThread(suite, { message: "pair once more" });
    const [approval, input] = (await readRunState(suite.database.db, runId)).requests;

    // The first answer is read back when the run resumes; the last one is in hand.
    await engine.answerRequest({
      requestId: input!.id,
      answer: { ok: true, data: { name: "Cy" } },
      actor: suite.people.owner,
    });
    const given = { note: "ship it", skipped: undefined, detail: { tries: [1, "two"] } };
    await engine.answerRequest({
      requestId: approval!.id,
      answer: { ok: true, data: given },
      actor: suite.people.reviewer,
    });
    given.detail.tries.push(3);
    await engine.idle();

    const done = await readRunState(suite.database.db, runId);
    expect(done.run.status).toBe("done");
    const [storedApproval, storedInput] = done.requests;
    const seen = (tool: string) =>
      log.entries.filter((e) => e.tool === tool && e.answer).map((e) => e.answer);
    expect(seen("approve")).toStrictEqual([
      { id: storedApproval!.requestId, ok: true, data: storedApproval!.answer!.data },
    ]);
    expect(storedApproval!.answer!.data).toStrictEqual({ note: "ship it", detail: { tries: [1, "two"] } });
    expect(seen("ask_name")).toStrictEqual([{ id: storedInput!.requestId, ok: true, data: { name: "Cy" } }]);
    await engine.stop();
  });

  it("answers an expired request as the system, refuses late answers, and resumes with the decline", async () => {
    const { engine, log, runId } = await startRunOnFreshThread(suite, { message: "expiring soon" });
    const [request] = (await readRunState(suite.database.db, runId)).requests;
    expect(request!.status).toBe("open");

    const error = await rejection(
      engine.answerRequest({ requestId: request!.id, answer: { ok: true }, actor: suite.people.owner }),
    );
    expect(isAppError(error, "expired:request")).toBe(true);
    await engine.idle();
    const done = await readRunState(suite.database.db, runId);
    expect(done.requests[0]!.status).toBe("expired");
    expect(done.requests[0]!.answer).toMatchObject({ actorId: null, ok: false, reason: "expired" });
    expect(done.run.status).toBe("done");
    expect(done.messages.at(-1)).toEqual({
      role: "assistant",
      content: "finished: declined/expired: Quick!",
    });
    expect(log.entries.filter((e) => e.answer)).toHaveLength(0);

    const again = await rejection(
      engine.answerRequest({ requestId: request!.id, answer: { ok: true }, actor: suite.people.owner }),
    );
    expect(isAppError(again, "expired:request")).toBe(true);
    await engine.stop();
  });

  it("expires due requests on its timer", async () => {
    const { engine, threadId, runId } = await startRunOnFreshThread(suite, {
      message: "expiring again",
      expiryIntervalMs: 20,
    });
    await engine.start();
    const seen: string[] = [];
    for await (const event of engine.subscribe({ threadId })) {
      seen.push(event.type);
      if (event.type === "run_finished") break;
    }
    await engine.stop();
    expect(seen).toContain("request_resolved");
    expect((await readRunState(suite.database.db, runId)).run.status).toBe("done");
  });
});

describe("answering a request whose thread is deleted meanwhile", () => {
  const suite = useEngineSuite("sqlite");

  it("is told the request is not found, not that someone else answered it", async () => {
    const { engine, threadId, runId } = await startRunOnFreshThread(suite, { message: "pair again" });
    const [, input] = (await readRunState(suite.database.db, runId)).requests;
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(suite.database.url.slice("file:".length));
    raw.pragma("foreign_keys = ON");
    raw.pragma("busy_timeout = 5000");
    try {
      // A function answer runs after the request is read and before it is claimed; SQLite's
      // synchronous driver lets the thread (and its requests, by cascade) go in between.
      const error = await rejection(
        engine.answerRequest({
          requestId: input!.id,
          actor: suite.people.owner,
          answer: () => {
            raw.prepare(`DELETE FROM "Thread" WHERE "id" = ?`).run(threadId);
            return { ok: true, data: { name: "Cy" } };
          },
        }),
      );
      expect(isAppError(error) && error.code).toBe("not_found:request");
      const left = raw.prepare(`SELECT count(*) AS n FROM "Answer" WHERE "requestRowId" = ?`).get(input!.id);
      expect(left).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
    await engine.idle();
    await engine.stop();
  });
});
