import { describe, expect, it } from "vitest";
import { appErrorCode as codeOf } from "@/app/_lib/app-error-code";
import { newThread, newUser, withTestEngine } from "@/app/_lib/test-engine";
import { getThreadById } from "@/lib/db/chat-threads";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { createChatThread } from "./create-chat-thread";
import { startChatRun } from "./start-chat-run";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

describe("startChatRun", () => {
  it("starts a run that parks on a production deploy, and names the thread", async () => {
    const user = await newUser(db, "user");
    const { threadId } = await createChatThread({ actor: user }, { db });
    const { runId } = await startChatRun(
      { actor: user, input: { threadId, text: "deploy v1.4 to production" } },
      { engine, db },
    );
    await engine.idle();
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("pending");
    const requests = await db.request.findMany({ where: { runId } });
    expect(requests.map((r) => [r.kind, r.audience, r.status])).toEqual([["approval", "reviewers", "open"]]);
    expect((await getThreadById({ db, threadId }))?.title).toBe("deploy v1.4 to production");
  });

  it("refuses another user's thread, admins included, and changes nothing", async () => {
    const owner = await newUser(db, "user");
    const admin = await newUser(db, "admin");
    const threadId = await newThread(db, owner);
    expect(
      await codeOf(startChatRun({ actor: admin, input: { threadId, text: "hello" } }, { engine, db })),
    ).toBe("not_found:thread");
    expect(await db.run.count({ where: { threadId } })).toBe(0);
  });

  it("reports an unknown thread as not found", async () => {
    const user = await newUser(db, "user");
    expect(
      await codeOf(startChatRun({ actor: user, input: { threadId: "missing", text: "hi" } }, { engine, db })),
    ).toBe("not_found:thread");
  });

  it.each([
    ["an empty message", { text: "   " }],
    ["a message that is too long", { text: "x".repeat(4001) }],
    ["an unexpected field", { text: "hi", runId: "r1" }],
    ["a non-string message", { text: 42 }],
  ])("rejects %s as bad input", async (_label, patch) => {
    const user = await newUser(db, "user");
    const threadId = await newThread(db, user);
    expect(await codeOf(startChatRun({ actor: user, input: { threadId, ...patch } }, { engine, db }))).toBe(
      "bad_request:input",
    );
    expect(await db.run.count({ where: { threadId } })).toBe(0);
  });

  it("refuses a second message while the first run is parked", async () => {
    const user = await newUser(db, "user");
    const threadId = await newThread(db, user);
    await startChatRun(
      { actor: user, input: { threadId, text: "deploy v2.0 to production" } },
      { engine, db },
    );
    await engine.idle();
    expect(
      await codeOf(startChatRun({ actor: user, input: { threadId, text: "hello?" } }, { engine, db })),
    ).toBe("conflict:run_busy");
  });
});
