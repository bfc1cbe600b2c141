import { describe, expect, it, vi } from "vitest";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { commitDecisions, holdDecisions, undoDecisions } from "./held-decisions";

// Long enough to undo at leisure, short enough for the sweep to commit within the test.
process.env.TOOLNEXUS_HOLD_SECONDS = "2";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

describe("held decisions in bulk", () => {
  it("holds each approval, undoes them all at once, and later commits a second decision through the sweep", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const ids = [
      (await parkRequest({ db, engine }, { owner, text: "deploy v3.1 to production" })).requestId,
      (await parkRequest({ db, engine }, { owner, text: "deploy v3.2 to production" })).requestId,
    ];
    const held = await holdDecisions(
      { actor: reviewer, input: { requestIds: ids, decision: { decision: "approve" } } },
      { engine },
    );
    expect(held.map((outcome) => outcome.ok)).toEqual([true, true]);
    const heldIds = held.flatMap((outcome) => (outcome.ok ? [outcome.heldId] : []));
    // Too early for the page to commit: nothing is answered.
    expect(await commitDecisions({ actor: reviewer, input: { heldIds } }, { engine })).toEqual({
      committed: 0,
    });
    await undoDecisions({ actor: reviewer, input: { heldIds } }, { engine });
    expect(await db.request.findMany({ where: { id: { in: ids } }, select: { status: true } })).toEqual([
      { status: "open" },
      { status: "open" },
    ]);
    expect(await db.answer.count({ where: { requestRowId: { in: ids } } })).toBe(0);

    // A decline this time, left alone: once its time is up the engine's sweep (run here by hand:
    // this engine's timers are off) or the inbox's next read commits it, page or no page.
    await holdDecisions(
      { actor: reviewer, input: { requestIds: ids, decision: { decision: "decline", reason: "freeze" } } },
      { engine },
    );
    await vi.waitFor(
      async () => {
        await engine.commitDueDecisions();
        expect(await db.answer.count({ where: { requestRowId: { in: ids }, ok: false } })).toBe(2);
      },
      { timeout: 10_000, interval: 250 },
    );
    expect(await db.heldDecision.count({ where: { requestRowId: { in: ids } } })).toBe(0);
  });
});
