import { describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newThread, newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { toPublicError } from "@/lib/errors";
import { cancelRunAsAdmin } from "./cancel-run-as-admin";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

const REFUND = "refund order 4321 for $250";

/** Everything a cancel would change: the run, its requests, the thread's log and the audit trail. */
async function stateOf(runId: string) {
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: { status: true, version: true },
  });
  const requests = await db.request.findMany({ where: { runId }, select: { status: true } });
  const events = await db.event.count({ where: { runId } });
  const audit = await db.auditLog.findMany({
    where: { targetId: runId },
    select: { actorId: true, action: true },
  });
  return { run, requests, events, audit };
}

function cancel(actor: SessionUser, input: unknown) {
  return cancelRunAsAdmin({ actor, input }, { engine });
}

describe("cancelRunAsAdmin", () => {
  it("lets an admin cancel another user's parked run and its open request", async () => {
    const owner = await newUser(db, "user");
    const admin = await newUser(db, "admin");
    const { runId, requestId } = await parkRequest({ db, engine }, { owner, text: REFUND });

    await expect(cancel(admin, { runId })).resolves.toEqual({ runId });
    await engine.idle();

    const after = await stateOf(runId);
    expect(after.run.status).toBe("cancelled");
    expect(after.requests).toEqual([{ status: "cancelled" }]);
    expect(after.audit).toEqual([{ actorId: admin.id, action: "run.cancelled" }]);
    const requestAudit = await db.auditLog.findMany({
      where: { targetId: requestId },
      select: { actorId: true, action: true },
    });
    expect(requestAudit).toEqual([{ actorId: admin.id, action: "request.cancelled" }]);
    const answer = await db.answer.findUniqueOrThrow({ where: { requestRowId: requestId } });
    expect(answer).toMatchObject({ ok: false, reason: "cancelled", actorId: admin.id });
    // The owner's chat learns of the end from the thread's log.
    const last = await db.event.findFirstOrThrow({ where: { runId }, orderBy: { seq: "desc" } });
    expect(last).toMatchObject({ type: "run_finished", payload: { status: "cancelled" } });
  });

  it.each(["user", "reviewer"] as const)("refuses a %s, and changes nothing", async (role) => {
    const owner = await newUser(db, "user");
    const { runId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    const before = await stateOf(runId);

    expect(await codeOf(cancel(await newUser(db, role), { runId }))).toBe("forbidden:role");
    // Its owner too: this is the admin's way in, the chat's Stop is theirs.
    expect(await codeOf(cancel(owner, { runId }))).toBe("forbidden:role");
    expect(await stateOf(runId)).toEqual(before);
    expect(before.run.status).toBe("pending");
  });

  it("refuses a run that has already ended as a conflict, and changes nothing", async () => {
    const owner = await newUser(db, "user");
    const admin = await newUser(db, "admin");
    const threadId = await newThread(db, owner);
    const { runId } = await engine.startRun({ threadId, userId: owner.id, message: "help" });
    await engine.idle();
    const before = await stateOf(runId);
    expect(before.run.status).toBe("done");

    const error = await cancel(admin, { runId }).catch((e: unknown) => e);
    expect(toPublicError(error)).toMatchObject({
      code: "conflict:run_finished",
      status: 409,
      message: "This run has already ended.",
    });
    expect(await stateOf(runId)).toEqual(before);
  });

  it("reports an unknown run as not found", async () => {
    const admin = await newUser(db, "admin");
    const error = await cancel(admin, { runId: "no-such-run" }).catch((e: unknown) => e);
    expect(toPublicError(error)).toMatchObject({ code: "not_found:run", status: 404 });
  });

  it.each([
    ["a missing run id", () => ({})],
    ["an empty run id", () => ({ runId: "" })],
    ["a non-string run id", () => ({ runId: 7 })],
    ["an unexpected field", (runId: string) => ({ runId, reason: "stuck" })],
    ["no object at all", (runId: string) => runId],
  ])("rejects %s as bad input, and changes nothing", async (_label, shape) => {
    const owner = await newUser(db, "user");
    const admin = await newUser(db, "admin");
    const { runId } = await parkRequest({ db, engine }, { owner, text: REFUND });
    const before = await stateOf(runId);
    expect(await codeOf(cancel(admin, shape(runId)))).toBe("bad_request:input");
    expect(await stateOf(runId)).toEqual(before);
  });
});
