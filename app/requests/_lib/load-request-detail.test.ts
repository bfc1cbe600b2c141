import { describe, expect, it } from "vitest";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import { createApiRequest } from "@/lib/db/api-requests";
import { createApiToken } from "@/lib/db/api-tokens";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { loadRequestDetail } from "./load-request-detail";

let db: Db;
let engine: Engine;
withTestEngine((started) => {
  ({ db, engine } = started);
});

describe("a request's detail", () => {
  it("says who asked: the API token and its owner, or whose chat", async () => {
    const [alice, rita] = await Promise.all([newUser(db, "user"), newUser(db, "reviewer")]);
    const token = await createApiToken({
      db,
      userId: alice.id,
      name: "ci",
      tokenHash: `hash-${alice.id}`,
      prefix: "tnx_abc",
      scopes: ["requests:write"],
      expiresAt: null,
      limit: 20,
    });
    if (token.status !== "created") throw new Error("no token");
    const made = await createApiRequest({
      db,
      input: {
        ownerId: alice.id,
        apiTokenId: token.row.id,
        audience: "reviewers",
        request: { kind: "approval", prompt: "Ship build 812?" },
        idempotencyKey: null,
        createHash: "812",
      },
    });
    if (made.status !== "created") throw new Error("no request");
    const read = (actor: typeof alice, requestId: string) =>
      loadRequestDetail({ actor, requestId }, { db, engine });
    expect((await read(rita, made.request.id)).askedBy).toBe(`${alice.name} via API token 'ci'`);
    expect(await read(alice, made.request.id)).toMatchObject({
      mine: true,
      askedBy: "you via API token 'ci'",
    });

    const chat = await parkRequest({ db, engine }, { owner: alice, text: "deploy v1.4 to production" });
    expect((await read(rita, chat.requestId)).askedBy).toBe(`${alice.name}'s chat`);
    expect(await read(alice, chat.requestId)).toMatchObject({ mine: true, askedBy: "your chat" });
  });

  it("lets a delegate see what is addressed to the person away, says for whom, and names both once answered", async () => {
    const [alice, sam] = await Promise.all([newUser(db, "user"), newUser(db, "user")]);
    const made = await createApiRequest({
      db,
      input: {
        ownerId: alice.id,
        apiTokenId: "token-1",
        audience: "owner",
        request: { kind: "question", prompt: "Which account?" },
        idempotencyKey: null,
        createHash: "q",
      },
    });
    if (made.status !== "created") throw new Error("no request");
    const requestId = made.request.id;
    const read = () => loadRequestDetail({ actor: sam, requestId }, { db, engine });
    await expect(read()).rejects.toMatchObject({ code: "not_found:request" });
    const absence = await db.absence.create({
      data: {
        userId: alice.id,
        delegateId: sam.id,
        startsAt: new Date(Date.now() - 60_000),
        endsAt: new Date(Date.now() + 3_600_000),
        createdById: alice.id,
      },
    });
    const open = await read();
    expect(open.canAnswer).toBe(true);
    expect(open.askedBy).toContain(`you answer for ${alice.email}, who is away`);
    await engine.answerRequest({ requestId, actor: sam, answer: { ok: true, data: { text: "savings" } } });
    const answered = await loadRequestDetail({ actor: alice, requestId }, { db, engine });
    expect(answered.view.status === "answered" && answered.view.answer.answeredBy).toBe(
      `${sam.name} for ${alice.name}`,
    );
    await db.absence.update({ where: { id: absence.id }, data: { endsAt: new Date(Date.now() - 1_000) } });
    await expect(read()).rejects.toMatchObject({ code: "not_found:request" });
  });
});
