import { describe, expect, it } from "vitest";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import { readAnswerData } from "./read-answer-data";
import { submitAnswer } from "./submit-answer";

// What a chat card reads once its request closes: the answer's data, for whoever may see the
// request; nothing while it is open; anyone else is told it does not exist.

describe("reading a closed request's answer for its chat card", () => {
  let db: Db;
  let engine: Engine;
  withTestEngine((started) => ({ db, engine } = started));

  it("gives the answer's data to those who may see it, once it is answered", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const stranger = await newUser(db, "user");
    const { requestId } = await parkRequest({ db, engine }, { owner, text: "deploy v1.4 to production" });
    const read = (actor: typeof owner) => readAnswerData({ actor, input: { requestId } }, { engine });
    expect(await read(owner)).toBeNull();

    const args = { service: "web", version: "v1.4.1", environment: "production" };
    await submitAnswer(
      { actor: reviewer, input: { requestId, answer: { ok: true, data: { arguments: args } } } },
      { engine },
    );
    expect(await read(owner)).toMatchObject({ arguments: args });
    expect(await read(reviewer)).toMatchObject({ arguments: args });
    await expect(read(stranger)).rejects.toMatchObject({ code: "not_found:request" });
  });
});
