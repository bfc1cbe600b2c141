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
});
