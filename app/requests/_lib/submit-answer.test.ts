import { describe, expect, it } from "vitest";
import { appErrorCode } from "@/app/_lib/app-error-code";
import { newUser, parkRequest, withTestEngine } from "@/app/_lib/test-engine";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Db } from "@/lib/db/sql/client";
import type { Engine } from "@/lib/engine/engine-types";
import type { AppError } from "@/lib/errors";
import { createParkedAuthorization } from "@/lib/oauth/testing/oauth-fixtures";
import { submitAnswer } from "./submit-answer";

let db: Db;
let engine: Engine;
withTestEngine((started) => ({ db, engine } = started));

function parkedRequest(owner: SessionUser, text: string) {
  return parkRequest({ db, engine }, { owner, text });
}

async function answerCount(requestId: string): Promise<number> {
  return db.answer.count({ where: { requestRowId: requestId } });
}

describe("submitAnswer", () => {
  it("lets a reviewer approve, resumes the run, and refuses a second answer", async () => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { requestId, runId } = await parkedRequest(owner, "deploy v1.4 to production");

    const first = await submitAnswer(
      {
        actor: reviewer,
        input: {
          requestId,
          answer: {
            ok: true,
            data: { arguments: { service: "web", version: "v1.5", environment: "production" } },
          },
        },
      },
      { engine },
    );
    expect(first).toEqual({ requestId, status: "answered" });
    await engine.idle();
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("done");

    const second = submitAnswer(
      {
        actor: await newUser(db, "reviewer"),
        input: { requestId, answer: { ok: false, reason: "declined" } },
      },
      { engine },
    );
    expect(await appErrorCode(second)).toMatch(/^conflict:/);
    expect(await answerCount(requestId)).toBe(1);
  });

  it("refuses the owner's own approval, and another user's input request as if it did not exist", async () => {
    const owner = await newUser(db, "user");
    const stranger = await newUser(db, "user");
    const approval = await parkedRequest(owner, "deploy v3.0 to production");
    expect(
      await appErrorCode(
        submitAnswer({ actor: owner, input: { ...approval, runId: undefined } }, { engine }),
      ),
    ).toBe("bad_request:input");
    expect(
      await appErrorCode(
        submitAnswer(
          { actor: owner, input: { requestId: approval.requestId, answer: { ok: true } } },
          { engine },
        ),
      ),
    ).toBe("forbidden:request");

    const input = await parkedRequest(owner, "book a flight");
    expect(
      await appErrorCode(
        submitAnswer(
          { actor: stranger, input: { requestId: input.requestId, answer: { ok: true } } },
          { engine },
        ),
      ),
    ).toBe("not_found:request");
    expect(await answerCount(approval.requestId)).toBe(0);
    expect(await answerCount(input.requestId)).toBe(0);
  });

  it("checks the answer against the request's schema on the server", async () => {
    const owner = await newUser(db, "user");
    const { requestId } = await parkedRequest(owner, "book a flight");
    const bad = submitAnswer(
      { actor: owner, input: { requestId, answer: { ok: true, data: { from: "Berlin", passengers: 0 } } } },
      { engine },
    );
    expect(await appErrorCode(bad)).toBe("invalid:answer");
    const error = (await bad.catch((e: unknown) => e)) as AppError;
    expect(error.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(["/from", "/passengers"]));
    expect(await answerCount(requestId)).toBe(0);
  });

  it("accepts a sign-in only through the provider's callback, never from a form", async () => {
    const { user, request } = await createParkedAuthorization(db, { wireId: `auth-${process.pid}` });
    const owner: SessionUser = { id: user.id, email: user.email, name: user.name, role: "user" };
    const forged = submitAnswer(
      {
        actor: owner,
        input: { requestId: request.id, answer: { ok: true, data: { provider: "demo", scopes: [] } } },
      },
      { engine },
    );
    expect(await appErrorCode(forged)).toBe("bad_request:input");
    expect(await answerCount(request.id)).toBe(0);
    expect((await db.request.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("open");
  });

  it.each([
    ["a missing answer", { requestId: "x" }],
    ["a system-only decline reason", { requestId: "x", answer: { ok: false, reason: "expired" } }],
    ["data that is not an object", { requestId: "x", answer: { ok: true, data: [1, 2] } }],
    ["an unknown field", { requestId: "x", answer: { ok: true }, extra: 1 }],
    ["an ok that is not a boolean", { requestId: "x", answer: { ok: "yes" } }],
    ["an answer that is not an object", { requestId: "x", answer: null }],
    ["an empty id", { requestId: "", answer: { ok: true } }],
  ])("rejects %s as bad input", async (_label, input) => {
    const user = await newUser(db, "user");
    expect(await appErrorCode(submitAnswer({ actor: user, input }, { engine }))).toBe("bad_request:input");
  });

  it.each([
    ["a string for ok", { ok: "false" }, "/answer/ok"],
    [
      "an unknown field inside the answer",
      { ok: true, data: { version: "v1.5" }, approved: true },
      "/answer",
    ],
  ])("refuses %s with a clear error and leaves the request open", async (_label, answer, path) => {
    const owner = await newUser(db, "user");
    const reviewer = await newUser(db, "reviewer");
    const { requestId, runId } = await parkedRequest(owner, "deploy v7.0 to production");
    const error = await submitAnswer({ actor: reviewer, input: { requestId, answer } }, { engine }).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(error?.code).toBe("bad_request:input");
    expect(error?.message).toBe("The submitted data is not valid.");
    expect(error?.issues).toEqual([expect.objectContaining({ path })]);
    await engine.idle();
    expect(await answerCount(requestId)).toBe(0);
    expect((await db.request.findUniqueOrThrow({ where: { id: requestId } })).status).toBe("open");
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("pending");
  });

  it("reports an unknown request as not found", async () => {
    const user = await newUser(db, "reviewer");
    expect(
      await appErrorCode(
        submitAnswer({ actor: user, input: { requestId: "nope", answer: { ok: true } } }, { engine }),
      ),
    ).toBe("not_found:request");
  });
});
