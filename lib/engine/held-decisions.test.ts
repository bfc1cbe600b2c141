import { describe, expect, it } from "vitest";
import type { TestProvider } from "@/lib/db/testing/test-database";
import { isAppError } from "@/lib/errors";
import { readRunState, rejection } from "./testing/engine-fixture";
import { useEngineSuite } from "./testing/engine-suite";
import { startRunOnFreshThread } from "./testing/start-run-on-fresh-thread";

describe.each<TestProvider>(["sqlite", "postgres"])("held decisions on %s", (provider) => {
  const suite = useEngineSuite(provider);

  it("holds a checked decision without answering anything; Undo leaves the request as it was", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair again", holdMs: 60_000 });
    const { db } = suite.database;
    const before = await readRunState(db, runId);
    const [approval] = before.requests;
    const { reviewer, admin, stranger } = suite.people;

    // Refused as the answer path refuses, and nothing is held.
    const refused = await rejection(
      engine.holdDecision({ requestId: approval!.id, actor: stranger, answer: { ok: true } }),
    );
    expect(isAppError(refused, "not_found:request")).toBe(true);
    expect(await db.heldDecision.count({ where: { requestRowId: approval!.id } })).toBe(0);

    const held = await engine.holdDecision({
      requestId: approval!.id,
      actor: reviewer,
      answer: { ok: true },
    });
    expect(Date.parse(held.commitAt)).toBeGreaterThan(Date.now() + 50_000);
    // A colleague is told someone is deciding; nobody can commit it early.
    const second = await rejection(
      engine.holdDecision({
        requestId: approval!.id,
        actor: admin,
        answer: { ok: false, reason: "declined" },
      }),
    );
    expect(isAppError(second, "conflict:decision_held")).toBe(true);
    expect(await engine.commitDecision(held.heldId)).toEqual({ status: "not_due" });
    expect(await engine.commitDueDecisions()).toBe(0);
    // The request shows who is deciding, and nothing else changed: open, unanswered, no events.
    const during = await readRunState(db, runId);
    expect(during.requests.map((r) => [r.status, r.answer])).toEqual(
      before.requests.map(() => ["open", null]),
    );
    expect(during.events).toHaveLength(before.events.length);
    expect((await db.request.findUniqueOrThrow({ where: { id: approval!.id } })).takenById).toBe(reviewer.id);

    // Only its reviewer may undo it, once.
    expect(
      isAppError(
        await rejection(engine.undoDecision({ heldId: held.heldId, actor: admin })),
        "conflict:decision_committed",
      ),
    ).toBe(true);
    await engine.undoDecision({ heldId: held.heldId, actor: reviewer });
    expect(
      isAppError(
        await rejection(engine.undoDecision({ heldId: held.heldId, actor: reviewer })),
        "conflict:decision_committed",
      ),
    ).toBe(true);
    const after = await readRunState(db, runId);
    expect(after.requests.map((r) => [r.status, r.answer])).toEqual(
      before.requests.map(() => ["open", null]),
    );
    expect(after.events).toHaveLength(before.events.length);
    expect((await db.request.findUniqueOrThrow({ where: { id: approval!.id } })).takenById).toBeNull();
    await engine.stop();
  });

  it("commits a due decision exactly once through the answer path, however many committers race", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, { message: "pair again", holdMs: 0 });
    const { db } = suite.database;
    const [approval] = (await readRunState(db, runId)).requests;
    const held = await engine.holdDecision({
      requestId: approval!.id,
      actor: suite.people.reviewer,
      answer: { ok: false, reason: "declined", data: { reason: "not today" } },
    });
    // The reviewer's page, and the sweep of this process and of another, all at once.
    const outcomes = await Promise.all([
      engine.commitDecision(held.heldId),
      engine.commitDecision(held.heldId),
      engine.commitDueDecisions(),
    ]);
    const committed = outcomes.filter((o) => typeof o === "object" && o.status === "committed");
    const swept = outcomes.filter((o) => o === 1);
    expect(committed.length + swept.length).toBe(1);
    await engine.idle();
    const after = await readRunState(db, runId);
    const answered = after.requests.find((r) => r.id === approval!.id)!;
    expect(answered.status).toBe("answered");
    expect(answered.answer).toMatchObject({ ok: false, actorId: suite.people.reviewer.id });
    expect(await db.answer.count({ where: { requestRowId: approval!.id } })).toBe(1);
    expect(await db.heldDecision.count()).toBe(0);
    // Too late to undo.
    expect(
      isAppError(
        await rejection(engine.undoDecision({ heldId: held.heldId, actor: suite.people.reviewer })),
        "conflict:decision_committed",
      ),
    ).toBe(true);
    await engine.stop();
  });

  it("commits a held decision by the engine's own sweep when no page is left to do it", async () => {
    const { engine, runId } = await startRunOnFreshThread(suite, {
      message: "pair again",
      holdMs: 200,
      expiryIntervalMs: 50,
    });
    const { db } = suite.database;
    await engine.start();
    const [approval] = (await readRunState(db, runId)).requests;
    await engine.holdDecision({
      requestId: approval!.id,
      actor: suite.people.reviewer,
      answer: { ok: true },
    });
    await expect
      .poll(async () => (await db.request.findUniqueOrThrow({ where: { id: approval!.id } })).status, {
        timeout: 5_000,
      })
      .toBe("answered");
    expect(await db.heldDecision.count({ where: { requestRowId: approval!.id } })).toBe(0);
    await engine.idle();
    await engine.stop();
  });
});
