import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerRequestTakingRun, resolveRequest } from "./resolve-request";
import { claimParkedRun } from "./run-leases";
import { insertInboxRequest } from "./testing/insert-inbox-request";
import { createTestDatabase, type TestDatabase, type TestProvider } from "./testing/test-database";

// A request's claim with its answer row, audit entry, event and webhook outbox: on PostgreSQL
// one statement for the first three (ADR 0050), and for all of them when it answers a run's
// request (ADR 0051); separate ones on SQLite. Either way a claim is won once, and a lost or late
// one writes nothing at all.

describe.each<TestProvider>(["sqlite", "postgres"])("settling a request on %s", (provider) => {
  let database: TestDatabase;
  const row = {
    ownerId: "u-owner",
    kind: "input",
    audience: "owner",
    prompt: "Name?",
    minutesAgo: 1,
  } as const;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const { db } = database;
    await db.user.create({ data: { id: "u-owner", email: "owner@example.test" } });
    for (const n of [1, 2, 3, 4, 5, 6])
      await db.user.create({ data: { id: `u-${n}`, email: `${n}@example.test` } });
    await insertInboxRequest({ db, row: { ...row, id: "r-race" } });
    await insertInboxRequest({ db, row: { ...row, id: "r-expire" } });
    const endpoint = { url: "https://hooks.example.test/in", secretEnc: "sealed" };
    await db.webhookEndpoint.create({ data: { ...endpoint, id: "we-on", events: ["request.answered"] } });
    await db.webhookEndpoint.create({
      data: { ...endpoint, id: "we-off", events: ["request.answered", "request.expired"], disabled: true },
    });
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function traces(requestRowId: string) {
    const { db } = database;
    const request = await db.request.findUniqueOrThrow({ where: { id: requestRowId } });
    const messages = await db.webhookMessage.findMany({
      where: { eventKey: { endsWith: `:${requestRowId}` } },
    });
    return {
      status: request.status,
      answers: await db.answer.findMany({ where: { requestRowId } }),
      audit: await db.auditLog.findMany({ where: { targetId: requestRowId } }),
      events: await db.event.findMany({ where: { threadId: request.threadId, type: "request_resolved" } }),
      run: await db.run.findUniqueOrThrow({ where: { id: request.runId! } }),
      messages: messages.map((message) => message.type),
      deliveries: (
        await db.webhookDelivery.findMany({
          where: { messageId: { in: messages.map((message) => message.id) } },
        })
      ).map((delivery) => delivery.endpointId),
    };
  }

  it("lets one of six racing answers win, and only the winner leaves rows", async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        resolveRequest({
          db: database.db,
          id: "r-race",
          resolution: {
            status: "answered",
            answer: { id: "pnd-r-race", ok: true, data: { name: `N${n}` } },
            actorId: `u-${n}`,
          },
        }),
      ),
    );
    expect(results.filter((result) => result.claimed)).toHaveLength(1);
    const seen = await traces("r-race");
    expect(seen.status).toBe("answered");
    expect(seen.answers).toHaveLength(1);
    const [answer] = seen.answers;
    expect(answer).toMatchObject({ ok: true, reason: null, toolName: "tool" });
    expect(answer!.data).toEqual({ name: `N${answer!.actorId!.slice(2)}` });
    expect(seen.audit.map((entry) => [entry.action, entry.actorId, entry.detail])).toEqual([
      ["request.answered", answer!.actorId, { ok: true }],
    ]);
    expect(seen.events).toHaveLength(1);
    expect(seen.events[0]!.payload).toMatchObject({
      id: "r-race",
      status: "answered",
      actorId: answer!.actorId,
    });
    expect(seen.run.openRequests).toBe(0);
    // The enabled endpoint subscribed to it gets one delivery; the disabled one none.
    expect(seen.messages).toEqual(["request.answered"]);
    expect(seen.deliveries).toEqual(["we-on"]);
  });

  it("refuses a late answer and changes nothing", async () => {
    const before = await traces("r-race");
    const late = await resolveRequest({
      db: database.db,
      id: "r-race",
      resolution: {
        status: "answered",
        answer: { id: "pnd-r-race", ok: true, data: { name: "Late" } },
        actorId: "u-1",
      },
    });
    expect(late).toEqual({ claimed: false });
    expect(await traces("r-race")).toEqual(before);
  });

  it("records an expiry as a failed answer, outboxed only where subscribed", async () => {
    const expired = await resolveRequest({
      db: database.db,
      id: "r-expire",
      resolution: { status: "expired", actorId: null },
    });
    expect(expired).toMatchObject({ claimed: true });
    const seen = await traces("r-expire");
    expect(seen.status).toBe("expired");
    expect(seen.answers).toEqual([
      expect.objectContaining({ ok: false, reason: "expired", actorId: null, data: null }),
    ]);
    expect(seen.audit.map((entry) => [entry.action, entry.detail])).toEqual([
      ["request.expired", { ok: false, reason: "expired" }],
    ]);
    expect(seen.events).toHaveLength(1);
    // Only the disabled endpoint takes expiries, so no message is written at all.
    expect(seen.messages).toEqual([]);
  });

  async function parkedRunWithTwoRequests(tag: string) {
    const { db } = database;
    const thread = await db.thread.create({ data: { userId: "u-owner" } });
    const run = await db.run.create({
      data: { threadId: thread.id, userId: "u-owner", model: "m", status: "pending", openRequests: 2 },
    });
    for (const n of [1, 2])
      await db.request.create({
        data: {
          id: `${tag}-${n}`,
          requestId: `pnd-${tag}-${n}`,
          runId: run.id,
          threadId: thread.id,
          ownerId: "u-owner",
          toolCallId: `c${n}`,
          toolName: "tool",
          args: {},
          kind: "input",
          prompt: "Name?",
          payload: { id: `pnd-${tag}-${n}`, kind: "input", prompt: "Name?" },
          audience: "owner",
        },
      });
    return run;
  }
  const lease = { leaseOwner: "instance-a", leaseExpiresAt: new Date(Date.UTC(2031, 0, 1)) };
  const answerOf = (requestRowId: string, actorId: string) =>
    answerRequestTakingRun({
      db: database.db,
      id: requestRowId,
      resolution: { status: "answered", answer: { id: `pnd-${requestRowId}`, ok: true }, actorId },
      lease,
    });

  it("counts an answer off a run that waits on more, and takes the run with the last one", async () => {
    const run = await parkedRunWithTwoRequests("two");
    const first = await answerOf("two-1", "u-1");
    expect(first).toMatchObject({ claimed: true, takenRun: null });
    const after = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect([after.status, after.openRequests, after.version, after.leaseOwner]).toEqual([
      "pending",
      1,
      1,
      null,
    ]);
    const last = await answerOf("two-2", "u-2");
    expect(last).toMatchObject({
      claimed: true,
      takenRun: { id: run.id, status: "running", leaseOwner: "instance-a" },
    });
    const taken = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect([taken.status, taken.openRequests, taken.version]).toEqual(["running", 0, 3]);
    expect(taken.leaseExpiresAt?.toISOString()).toBe(lease.leaseExpiresAt.toISOString());
  });

  it("counts the run off once when answers to one of its requests race, and not at all once it runs", async () => {
    const run = await parkedRunWithTwoRequests("both");
    const results = await Promise.all([1, 2, 3, 4].map((n) => answerOf("both-1", `u-${n}`)));
    expect(results.filter((result) => result.claimed)).toHaveLength(1);
    const after = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect([after.status, after.openRequests, after.version]).toEqual(["pending", 1, 1]);
    expect(await database.db.answer.count({ where: { requestRowId: "both-1" } })).toBe(1);
    // A run no longer parked takes no answer: nothing about it changes.
    await database.db.run.update({ where: { id: run.id }, data: { status: "running" } });
    expect(await answerOf("both-2", "u-1")).toEqual({ claimed: false });
    const request = await database.db.request.findUniqueOrThrow({ where: { id: "both-2" } });
    expect(request.status).toBe("open");
    expect(await database.db.answer.count({ where: { requestRowId: "both-2" } })).toBe(0);
    expect(await database.db.auditLog.count({ where: { targetId: "both-2" } })).toBe(0);
    expect((await database.db.run.findUniqueOrThrow({ where: { id: run.id } })).openRequests).toBe(1);
  });

  it("leaves no run behind when answers to its last two requests race", async () => {
    const run = await parkedRunWithTwoRequests("pair");
    const results = await Promise.all([answerOf("pair-1", "u-1"), answerOf("pair-2", "u-2")]);
    expect(results.every((result) => result.claimed)).toBe(true);
    const after = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(after.openRequests).toBe(0);
    // Either an answer took the run in its own transaction, or neither could see the other's
    // commit and the run is parked with nothing open, for the claim the engine makes next.
    const taken = results.filter((result) => result.claimed && result.takenRun !== null);
    if (taken.length === 0) {
      expect(after.status).toBe("pending");
      expect(await claimParkedRun({ db: database.db, runId: run.id, ...lease })).toMatchObject({
        status: "running",
      });
    } else {
      expect(taken).toHaveLength(1);
      expect(after.status).toBe("running");
    }
  });

  // Last: it adds endpoints the cases above do not expect.
  it("outboxes an answer to every subscribed endpoint, few or many, at the thread's next seq", async () => {
    const { db } = database;
    const endpoint = { url: "https://hooks.example.test/in", secretEnc: "sealed" };
    const enabled = async (from: number, to: number) => {
      for (let n = from; n <= to; n++)
        await db.webhookEndpoint.create({
          data: {
            ...endpoint,
            id: `we-${String(n).padStart(2, "0")}`,
            events: ["run.finished", "request.answered"],
          },
        });
    };
    const outboxed = async (tag: string) => {
      const run = await parkedRunWithTwoRequests(tag);
      expect(await answerOf(`${tag}-1`, "u-1")).toMatchObject({ claimed: true, takenRun: null });
      const seen = await traces(`${tag}-1`);
      const thread = await db.thread.findUniqueOrThrow({ where: { id: run.threadId } });
      expect(seen.events.map((event) => event.seq)).toEqual([thread.lastEventSeq]);
      expect([seen.run.openRequests, seen.run.version]).toEqual([1, 1]);
      expect(seen.messages).toEqual(["request.answered"]);
      return seen.deliveries.sort();
    };
    // we-on and seven more: as many as the one statement writes on PostgreSQL (ADR 0051).
    await enabled(1, 7);
    const few = await outboxed("few");
    expect(few).toEqual(["we-01", "we-02", "we-03", "we-04", "we-05", "we-06", "we-07", "we-on"]);
    // Twelve take the transaction instead, and every one still gets its delivery.
    await enabled(8, 11);
    const many = await outboxed("many");
    expect(many).toHaveLength(12);
    expect(new Set(many).size).toBe(12);
  });
});
