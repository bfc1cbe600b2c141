import { describe, expect, it } from "vitest";
import { appErrorCode } from "@/app/_lib/app-error-code";
import { newThread, newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { startChatRun } from "@/app/chat/_lib/start-chat-run";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { answerMany } from "./answer-many";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

async function parkedApproval(owner: SessionUser, text: string): Promise<string> {
  return (await parkRequest({ db, engine }, { owner, text })).requestId;
}

describe("answerMany", () => {
  it("approves several approvals, reporting one answered meanwhile without stopping the rest", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const ids = [
      await parkedApproval(owner, "deploy v1.1 to production"),
      await parkedApproval(owner, "deploy v1.2 to production"),
      await parkedApproval(owner, "refund order 77 for $250"),
    ];
    await submitAnswer(
      {
        actor: reviewer,
        input: {
          requestId: ids[1],
          answer: {
            ok: true,
            data: { arguments: { service: "web", version: "v1.2", environment: "production" } },
          },
        },
      },
      { engine },
    );

    const outcomes = await answerMany(
      { actor: reviewer, input: { requestIds: ids, decision: { decision: "approve" } } },
      { engine },
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({ id: ids[1], message: expect.stringMatching(/already|no longer/) });
    await engine.idle();
    const rows = await db.answer.findMany({ where: { requestRowId: { in: ids } } });
    expect(rows).toHaveLength(3);
    // The deploy was approved with the version the form would have shown.
    const deploy = rows.find((row) => row.requestRowId === ids[0]);
    expect(deploy?.data).toEqual({
      arguments: { service: "web", version: "v1.1", environment: "production" },
    });
    const runs = await db.run.findMany({ where: { requests: { some: { id: { in: ids } } } } });
    expect(runs.map((run) => run.status)).toEqual(["done", "done", "done"]);
  });

  it("leaves requests that are not approvals to their own page", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const threadId = await newThread(db, reviewer);
    const { runId } = await startChatRun(
      { actor: reviewer, input: { threadId, text: "book a flight" } },
      { engine, db },
    );
    await engine.idle();
    const input = await db.request.findFirstOrThrow({ where: { runId } });
    const approval = await parkedApproval(owner, "deploy v5.0 to production");
    const outcomes = await answerMany(
      { actor: reviewer, input: { requestIds: [input.id, approval], decision: { decision: "approve" } } },
      { engine },
    );
    expect(outcomes).toEqual([
      { id: input.id, ok: false, message: expect.stringMatching(/Only approvals/) },
      { id: approval, ok: true },
    ]);
    expect(await db.answer.count({ where: { requestRowId: input.id } })).toBe(0);
  });

  it("declines with the reviewer's reason", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const id = await parkedApproval(owner, "deploy v9.0 to production");
    const outcomes = await answerMany(
      {
        actor: reviewer,
        input: { requestIds: [id], decision: { decision: "decline", reason: "freeze week" } },
      },
      { engine },
    );
    expect(outcomes).toEqual([{ id, ok: true }]);
    const answer = await db.answer.findFirstOrThrow({ where: { requestRowId: id } });
    expect([answer.ok, answer.reason]).toEqual([false, "declined"]);
  });

  it("is for reviewers only", async () => {
    const owner = await newUser(db, "user");
    const id = await parkedApproval(owner, "deploy v4.0 to production");
    const attempt = answerMany(
      { actor: owner, input: { requestIds: [id], decision: { decision: "approve" } } },
      { engine },
    );
    expect(await appErrorCode(attempt)).toBe("forbidden:role");
    expect(await db.answer.count({ where: { requestRowId: id } })).toBe(0);
  });

  it.each([
    ["no ids", { requestIds: [], decision: { decision: "approve" } }],
    ["a repeated id", { requestIds: ["a", "a"], decision: { decision: "approve" } }],
    [
      "too many ids",
      { requestIds: Array.from({ length: 51 }, (_, i) => `r${i}`), decision: { decision: "approve" } },
    ],
    ["an unknown decision", { requestIds: ["a"], decision: { decision: "maybe" } }],
    ["a reason on an approval", { requestIds: ["a"], decision: { decision: "approve", reason: "x" } }],
  ])("rejects %s as bad input", async (_label, input) => {
    const reviewer = await newUser(db, "reviewer");
    expect(await appErrorCode(answerMany({ actor: reviewer, input }, { engine }))).toBe("bad_request:input");
  });
});
