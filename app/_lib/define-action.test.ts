import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { SessionUser } from "@/lib/auth/session-user";
import type { AppError } from "@/lib/errors";
import { appErrorCode } from "./app-error-code";
import { defineAction } from "./define-action";

const user: SessionUser = { id: "u1", email: null, name: null, role: "user" };
const reviewer: SessionUser = { ...user, id: "r1", role: "reviewer" };

function recordingAction() {
  const calls: unknown[] = [];
  const action = defineAction(
    { role: "reviewer", input: z.object({ note: z.string().trim().min(1) }).strict() },
    async ({ actor, input }, deps: { tag: string }) => {
      calls.push({ actor: actor.id, input, tag: deps.tag });
      return input.note;
    },
  );
  return { action, calls };
}

describe("defineAction", () => {
  it("hands the handler the parsed input, the actor and the deps", async () => {
    const { action, calls } = recordingAction();
    expect(await action({ actor: reviewer, input: { note: "  ship it " } }, { tag: "t" })).toBe("ship it");
    expect(calls).toEqual([{ actor: "r1", input: { note: "ship it" }, tag: "t" }]);
  });

  it("checks the role before it looks at the input", async () => {
    const { action, calls } = recordingAction();
    expect(await appErrorCode(action({ actor: user, input: { nope: 1 } }, { tag: "t" }))).toBe(
      "forbidden:role",
    );
    expect(calls).toEqual([]);
  });

  it("refuses bad input with the field's path and never runs the handler", async () => {
    const { action, calls } = recordingAction();
    const refused = action({ actor: reviewer, input: { note: "x", extra: true } }, { tag: "t" });
    const error = (await refused.catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe("bad_request:input");
    expect(error.issues.map((issue) => issue.path)).toEqual(["/"]);
    expect(await appErrorCode(action({ actor: reviewer, input: { note: " " } }, { tag: "t" }))).toBe(
      "bad_request:input",
    );
    expect(calls).toEqual([]);
  });
});
