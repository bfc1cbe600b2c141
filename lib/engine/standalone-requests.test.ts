import { describe, expect, it } from "vitest";
import { listThreadsByOwner } from "@/lib/db/chat-threads";
import { listInboxRequests } from "@/lib/db/inbox-requests";
import type { TestProvider } from "@/lib/db/testing/test-database";
import type { Actor } from "@/lib/domain/roles";
import { isAppError } from "@/lib/errors";
import type { NewStandaloneRequest } from "./engine-types";
import { makeTestEngine } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { memoryLog } from "./testing/scripted-agent";

async function appErrorCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return error === null ? "resolved" : isAppError(error) ? error.code : String(error);
}

const schema = {
  type: "object",
  properties: { version: { type: "string", minLength: 1 } },
  required: ["version"],
};

function newRequest(owner: Actor, over: Partial<NewStandaloneRequest> = {}): NewStandaloneRequest {
  return {
    owner,
    apiTokenId: "token-1",
    request: { kind: "approval", prompt: "Deploy v2 to production?", data: { schema } },
    idempotencyKey: null,
    createHash: "hash-1",
    ...over,
  };
}

describe.each<TestProvider>(["sqlite", "postgres"])("requests with no run on %s", (provider) => {
  const suite = useEngineSuite(provider);
  const engineOf = () => makeTestEngine({ db: suite.database.db, log: memoryLog() });

  it("are answered through answerRequest by the same roles, once, against their schema, with audit and events", async () => {
    await suite.freshThread();
    const { owner, stranger, reviewer } = suite.people;
    const engine = engineOf();
    const { request, replayed } = await engine.createRequest(newRequest(owner));
    expect(replayed).toBe(false);
    expect(request).toMatchObject({ runId: null, audience: "reviewers", status: "open", ownerId: owner.id });
    expect(request.request).toEqual({
      id: request.id,
      kind: "approval",
      prompt: "Deploy v2 to production?",
      data: { schema },
    });

    // The reviewer's inbox lists it; the owner's chat list does not show its thread.
    const inbox = await listInboxRequests({
      db: suite.database.db,
      query: { viewer: reviewer, status: "open", sort: "newest", page: 1, pageSize: 50 },
    });
    expect(inbox.rows.map((row) => row.id)).toContain(request.id);
    expect(await listThreadsByOwner({ db: suite.database.db, userId: owner.id })).toHaveLength(1);

    const answer = (actor: Actor, data: Record<string, unknown>) =>
      engine.answerRequest({ requestId: request.id, actor, answer: { ok: true, data } });
    // The owner knows the request exists and is told they may not answer it; to a stranger it
    // is one that does not exist.
    expect(await appErrorCode(answer(owner, { version: "2" }))).toBe("forbidden:request");
    expect(await appErrorCode(answer(stranger, { version: "2" }))).toBe("not_found:request");
    expect(await appErrorCode(answer(reviewer, { version: "" }))).toBe("invalid:answer");
    await answer(reviewer, { version: "2.0.1" });
    expect(await appErrorCode(answer(reviewer, { version: "3" }))).toBe("conflict:answer");
    expect(await appErrorCode(engine.cancelRequest({ requestId: request.id, ownerId: owner.id }))).toBe(
      "conflict:answer",
    );

    const done = await engine.readOwnRequest({ requestId: request.id, ownerId: owner.id });
    expect(done.status).toBe("answered");
    expect(done.answer).toMatchObject({ ok: true, data: { version: "2.0.1" }, actorId: reviewer.id });

    const events = await suite.database.db.event.findMany({
      where: { threadId: request.threadId },
      orderBy: { seq: "asc" },
    });
    expect(events.map((event) => [event.seq, event.type, event.runId])).toEqual([
      [1, "pending", null],
      [2, "request_resolved", null],
    ]);
    const audit = await suite.database.db.auditLog.findMany({
      where: { targetId: request.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((entry) => [entry.action, entry.actorId])).toEqual([
      ["request.created", owner.id],
      ["request.answered", reviewer.id],
    ]);
  });

  it("write the outbox's request.created and request.answered like a tool's request", async () => {
    await suite.freshThread();
    const { owner } = suite.people;
    const db = suite.database.db;
    const endpoint = await db.webhookEndpoint.create({
      data: {
        url: "http://127.0.0.1:9/hook",
        events: ["request.created", "request.answered"],
        secretEnc: "sealed",
      },
    });
    try {
      const engine = engineOf();
      const { request } = await engine.createRequest(newRequest(owner, { audience: "owner" }));
      await engine.answerRequest({
        requestId: request.id,
        actor: owner,
        answer: { ok: true, data: { version: "1" } },
      });
      const messages = await db.webhookMessage.findMany({
        where: { eventKey: { endsWith: `:${request.id}` } },
        orderBy: { type: "desc" },
      });
      expect(messages.map((message) => message.type)).toEqual(["request.created", "request.answered"]);
      expect(JSON.parse(messages[0]!.body)).toMatchObject({ data: { id: request.id, runId: null } });
    } finally {
      await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
  });

  it("are the owner's own: another user cannot read, wait on or cancel them", async () => {
    await suite.freshThread();
    const { owner, stranger } = suite.people;
    const engine = engineOf();
    const { request } = await engine.createRequest(newRequest(owner, { audience: "owner" }));
    const as = { requestId: request.id, ownerId: stranger.id };
    expect(await appErrorCode(engine.readOwnRequest(as))).toBe("not_found:request");
    expect(await appErrorCode(engine.waitForRequest({ ...as, timeoutMs: 10 }))).toBe("not_found:request");
    expect(await appErrorCode(engine.cancelRequest(as))).toBe("not_found:request");
    expect((await engine.readOwnRequest({ requestId: request.id, ownerId: owner.id })).status).toBe("open");
  });

  it("replay one Idempotency-Key to the same request, refuse it with another body, and store nothing twice", async () => {
    await suite.freshThread();
    const { owner } = suite.people;
    const engine = engineOf();
    const keyed = newRequest(owner, { idempotencyKey: "job-42" });
    const [first, racing] = await Promise.all([engine.createRequest(keyed), engine.createRequest(keyed)]);
    expect(racing.request.id).toBe(first.request.id);
    expect([first.replayed, racing.replayed].sort()).toEqual([false, true]);
    const again = await engine.createRequest(keyed);
    expect(again).toMatchObject({ replayed: true, request: { id: first.request.id } });
    expect(await appErrorCode(engine.createRequest({ ...keyed, createHash: "hash-2" }))).toBe(
      "invalid:idempotency_key",
    );
    expect(await suite.database.db.request.count({ where: { ownerId: owner.id } })).toBe(1);
    expect(await suite.database.db.thread.count({ where: { userId: owner.id, kind: "request" } })).toBe(1);
  });

  it("refuse a schema nobody could satisfy and sign-ins, storing nothing", async () => {
    await suite.freshThread();
    const { owner } = suite.people;
    const engine = engineOf();
    const broken = newRequest(owner, {
      request: { kind: "input", prompt: "Which?", data: { schema: { type: "no-such-type" } } },
    });
    expect(await appErrorCode(engine.createRequest(broken))).toBe("bad_request:input");
    const signIn = newRequest(owner, {
      request: { kind: "authorization", prompt: "Sign in", url: "https://example.test" },
    });
    expect(await appErrorCode(engine.createRequest(signIn))).toBe("bad_request:input");
    expect(await suite.database.db.request.count({ where: { ownerId: owner.id } })).toBe(0);
  });

  it("expire in the sweep, are cancelled by their owner, and wake a waiter when answered", async () => {
    await suite.freshThread();
    const { owner } = suite.people;
    const engine = engineOf();
    const soon = new Date(Date.now() + 300).toISOString();
    const { request: expiring } = await engine.createRequest(
      newRequest(owner, { request: { kind: "input", prompt: "Now?", expiresAt: soon } }),
    );
    const waited = await engine.waitForRequest({
      requestId: expiring.id,
      ownerId: owner.id,
      timeoutMs: 20_000,
    });
    expect(waited.status).toBe("expired");
    expect(waited.answer).toMatchObject({ ok: false, reason: "expired", actorId: null });

    const past = newRequest(owner, {
      request: { kind: "input", prompt: "Too late?", expiresAt: new Date(Date.now() - 1).toISOString() },
    });
    expect(await appErrorCode(engine.createRequest(past))).toBe("bad_request:input");
    const { request: dueLater } = await engine.createRequest(
      newRequest(owner, {
        request: { kind: "input", prompt: "Swept?", expiresAt: new Date(Date.now() + 50).toISOString() },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await engine.expireDueRequests()).toBeGreaterThanOrEqual(1);
    expect((await engine.readOwnRequest({ requestId: dueLater.id, ownerId: owner.id })).status).toBe(
      "expired",
    );

    const { request: withdrawn } = await engine.createRequest(newRequest(owner, { audience: "owner" }));
    const cancelled = await engine.cancelRequest({ requestId: withdrawn.id, ownerId: owner.id });
    expect(cancelled).toMatchObject({ status: "cancelled", answer: { ok: false, reason: "cancelled" } });
    expect(await appErrorCode(engine.cancelRequest({ requestId: withdrawn.id, ownerId: owner.id }))).toBe(
      "conflict:request_closed",
    );
    // The expired and the withdrawn requests' answers carry their tool, for the audit's filter.
    const answers = await suite.database.db.answer.findMany({
      where: { requestRowId: { in: [expiring.id, dueLater.id, withdrawn.id] } },
      select: { toolName: true, request: { select: { toolName: true } } },
    });
    expect(answers).toHaveLength(3);
    for (const answer of answers) {
      expect(answer.toolName).not.toBe("");
      expect(answer.toolName).toBe(answer.request.toolName);
    }

    const { request: asked } = await engine.createRequest(
      newRequest(owner, { audience: "owner", request: { kind: "question", prompt: "Colour?" } }),
    );
    const waiting = engine.waitForRequest({ requestId: asked.id, ownerId: owner.id, timeoutMs: 20_000 });
    await engine.answerRequest({
      requestId: asked.id,
      actor: owner,
      answer: { ok: true, data: { colour: "red" } },
    });
    expect(await waiting).toMatchObject({
      status: "answered",
      answer: { ok: true, data: { colour: "red" } },
    });

    const { request: quiet } = await engine.createRequest(newRequest(owner, { audience: "owner" }));
    expect(
      (await engine.waitForRequest({ requestId: quiet.id, ownerId: owner.id, timeoutMs: 50 })).status,
    ).toBe("open");
    // No run is touched: none exists for any of these.
    expect(await suite.database.db.run.count({ where: { userId: owner.id } })).toBe(0);
  });
});
