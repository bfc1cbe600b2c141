import { describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newThread, newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { toPublicError } from "@/lib/errors";
import { buildThreadMessages } from "./build-thread-messages";
import { cancelChatRun } from "./cancel-chat-run";
import { loadThreadEvents } from "./load-thread-events";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

const REFUND = "refund order 4321 for $250";

/** Everything a cancel would change: the run, its requests, the thread's log and the audit trail. */
async function stateOf(runId: string, threadId: string) {
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: { status: true, version: true, leaseOwner: true },
  });
  const requests = await db.request.findMany({
    where: { runId },
    select: { id: true, status: true, resolvedAt: true },
    orderBy: { createdAt: "asc" },
  });
  const events = await db.event.count({ where: { threadId } });
  const audit = await db.auditLog.count({ where: { targetId: runId } });
  return { run, requests, events, audit };
}

function cancel(actor: SessionUser, input: unknown) {
  return cancelChatRun({ actor, input }, { engine, db });
}

describe("cancelChatRun", () => {
  it("lets the owner stop a parked run: the run and its open request end as cancelled", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { runId, threadId, requestId } = await parkRequest({ db, engine }, { owner, text: REFUND });

    await expect(cancel(owner, { threadId, runId })).resolves.toEqual({ runId });
    await engine.idle();

    const after = await stateOf(runId, threadId);
    expect(after.run).toMatchObject({ status: "cancelled", leaseOwner: null });
    expect(after.requests).toEqual([expect.objectContaining({ id: requestId, status: "cancelled" })]);
    const stored = await engine.readRequest({ requestId, actor: reviewer });
    expect(stored).toMatchObject({ status: "cancelled", answer: { ok: false, reason: "cancelled" } });
    expect(stored.answer?.actorId).toBe(owner.id);

    // The request is read-only now: a reviewer's approval is refused and nothing is recorded.
    expect(
      await codeOf(submitAnswer({ actor: reviewer, input: { requestId, answer: { ok: true } } }, { engine })),
    ).toBe("conflict:run_stopped");
    expect(await db.answer.count({ where: { requestRowId: requestId } })).toBe(1);

    // The chat, rebuilt from the log, shows the card cancelled and the run over.
    const [, reply] = await buildThreadMessages(await loadThreadEvents({ db, threadId }));
    const card = reply!.parts.find((part) => part.type === "data-request");
    expect(card).toMatchObject({
      data: { view: { status: "cancelled" }, resolution: { reason: "cancelled" } },
    });
    expect(reply!.parts.find((part) => part.type === "data-tool")).toMatchObject({
      data: { name: "refund", state: "cancelled" },
    });
    expect(reply!.parts.filter((part) => part.type === "data-run")).toEqual([
      { type: "data-run", id: runId, data: { runId, status: "cancelled" } },
    ]);
  });

  it("frees the thread for the next message", async () => {
    const owner = await newUser(db, "user");
    const { runId, threadId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    await cancel(owner, { threadId, runId });
    const next = await engine.startRun({ threadId, userId: owner.id, message: "help" });
    await engine.idle();
    expect((await db.run.findUniqueOrThrow({ where: { id: next.runId } })).status).toBe("done");
  });

  it("refuses a second stop as a conflict and changes nothing", async () => {
    const owner = await newUser(db, "user");
    const { runId, threadId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    await cancel(owner, { threadId, runId });
    const before = await stateOf(runId, threadId);

    const second = cancel(owner, { threadId, runId });
    const error = await second.catch((e: unknown) => e);
    expect(toPublicError(error)).toMatchObject({
      code: "conflict:run_finished",
      status: 409,
      message: "This run has already ended.",
    });
    expect(await stateOf(runId, threadId)).toEqual(before);
  });

  it("refuses to stop a run that finished on its own, and changes nothing", async () => {
    const owner = await newUser(db, "user");
    const threadId = await newThread(db, owner);
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "help" });
    await engine.idle();
    const before = await stateOf(runId, threadId);
    expect(before.run.status).toBe("done");

    expect(await codeOf(cancel(owner, { threadId, runId }))).toBe("conflict:run_finished");
    expect(await stateOf(runId, threadId)).toEqual(before);
  });

  it("refuses another user, admins included, and changes nothing", async () => {
    const owner = await newUser(db, "user");
    const { runId, threadId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    const before = await stateOf(runId, threadId);

    for (const role of ["user", "reviewer", "admin"] as const) {
      const other = await newUser(db, role);
      expect(await codeOf(cancel(other, { threadId, runId }))).toBe("not_found:thread");
    }
    expect(await stateOf(runId, threadId)).toEqual(before);
    expect(before.run.status).toBe("pending");
  });

  it("reports an unknown run, or one from another of the owner's threads, as not found", async () => {
    const owner = await newUser(db, "user");
    const { runId, threadId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    const otherThread = await newThread(db, owner);
    const before = await stateOf(runId, threadId);

    expect(await codeOf(cancel(owner, { threadId, runId: "no-such-run" }))).toBe("not_found:run");
    expect(await codeOf(cancel(owner, { threadId: otherThread, runId }))).toBe("not_found:run");
    expect(await codeOf(cancel(owner, { threadId: "no-such-thread", runId }))).toBe("not_found:thread");
    expect(await stateOf(runId, threadId)).toEqual(before);
  });

  it.each([
    ["a missing run id", (ids: Ids) => ({ threadId: ids.threadId })],
    ["an empty run id", (ids: Ids) => ({ ...ids, runId: "" })],
    ["a non-string run id", (ids: Ids) => ({ ...ids, runId: 42 })],
    ["an unexpected field", (ids: Ids) => ({ ...ids, reason: "because" })],
    ["no object at all", () => "stop"],
  ])("rejects %s as bad input and changes nothing", async (_label, shape) => {
    const owner = await newUser(db, "user");
    const { runId, threadId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    const before = await stateOf(runId, threadId);

    expect(await codeOf(cancel(owner, shape({ threadId, runId })))).toBe("bad_request:input");
    expect(await stateOf(runId, threadId)).toEqual(before);
  });
});

type Ids = { threadId: string; runId: string };
