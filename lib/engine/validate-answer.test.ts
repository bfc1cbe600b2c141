import { describe, expect, it } from "vitest";
import { ANSWER_DATA_MAX_BYTES, DECLINE_REASON_MAX_CHARS } from "@/lib/domain/answer-limits";
import { isAppError } from "@/lib/errors";
import type { Request } from "@/lib/toolnexus/types";
import { validateAnswer } from "./validate-answer";

const flight: Request = {
  id: "pnd-1",
  kind: "input",
  prompt: "Where to?",
  data: {
    schema: {
      type: "object",
      required: ["to", "date"],
      properties: {
        to: { type: "string", minLength: 3 },
        date: { type: "string", format: "date" },
        seats: { type: "integer", minimum: 1 },
      },
      additionalProperties: false,
    },
  },
};

function errorOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("validateAnswer", () => {
  it("accepts data that matches data.schema and echoes the request id", () => {
    const answer = validateAnswer({
      request: flight,
      answer: { ok: true, data: { to: "LIS", date: "2026-12-01" } },
    });
    expect(answer).toEqual({ id: "pnd-1", ok: true, data: { to: "LIS", date: "2026-12-01" } });
  });

  it("reports every schema violation with its path", () => {
    const error = errorOf(() =>
      validateAnswer({
        request: flight,
        answer: { ok: true, data: { to: "L", date: "tomorrow", seats: 0 } },
      }),
    );
    expect(isAppError(error, "invalid:answer")).toBe(true);
    const paths = (error as { issues: { path: string }[] }).issues.map((issue) => issue.path).sort();
    expect(paths).toEqual(["/date", "/seats", "/to"]);
  });

  it("treats missing data as an empty object when a schema requires fields", () => {
    const error = errorOf(() => validateAnswer({ request: flight, answer: { ok: true } }));
    expect(isAppError(error, "invalid:answer")).toBe(true);
  });

  it("turns any decline into reason 'declined' and keeps its data unchecked", () => {
    expect(validateAnswer({ request: flight, answer: { ok: false } })).toEqual({
      id: "pnd-1",
      ok: false,
      reason: "declined",
    });
    expect(validateAnswer({ request: flight, answer: { ok: false, data: { reason: "too late" } } })).toEqual({
      id: "pnd-1",
      ok: false,
      reason: "declined",
      data: { reason: "too late" },
    });
  });

  it("passes data through when the request has no schema", () => {
    const approval: Request = { id: "a", kind: "approval", prompt: "ok?" };
    expect(validateAnswer({ request: approval, answer: { ok: true, data: { note: "fine" } } })).toEqual({
      id: "a",
      ok: true,
      data: { note: "fine" },
    });
    expect(validateAnswer({ request: approval, answer: { ok: true } })).toEqual({ id: "a", ok: true });
  });
});

describe("answer limits", () => {
  const approval: Request = { id: "pnd-2", kind: "approval", prompt: "Deploy?" };

  it("accepts a reason of exactly the limit and refuses one character more, saying the limit", () => {
    const atLimit = "r".repeat(DECLINE_REASON_MAX_CHARS);
    expect(
      validateAnswer({
        request: approval,
        answer: { ok: false, reason: "declined", data: { reason: atLimit } },
      }),
    ).toEqual({ id: "pnd-2", ok: false, reason: "declined", data: { reason: atLimit } });

    const error = errorOf(() =>
      validateAnswer({
        request: approval,
        answer: { ok: false, reason: "declined", data: { reason: `${atLimit}r` } },
      }),
    );
    expect(isAppError(error, "bad_request:input")).toBe(true);
    expect((error as Error).message).toBe("A reason can be at most 1,000 characters; this one has 1,001.");
  });

  it("refuses a 900 KB decline reason and an oversized answer before looking at the schema", () => {
    const huge = "x".repeat(900 * 1024);
    expect(
      isAppError(
        errorOf(() => validateAnswer({ request: approval, answer: { ok: false, data: { reason: huge } } })),
        "bad_request:input",
      ),
    ).toBe(true);
    const error = errorOf(() =>
      validateAnswer({
        request: flight,
        answer: { ok: true, data: { to: "x".repeat(ANSWER_DATA_MAX_BYTES), date: "2026-12-01" } },
      }),
    );
    expect(isAppError(error, "bad_request:input")).toBe(true);
    expect((error as Error).message).toBe("An answer can be at most 16 KB; this one is 17 KB.");
  });

  it("counts bytes, not characters, for the answer's data", () => {
    const wide = "é".repeat(ANSWER_DATA_MAX_BYTES / 2);
    const error = errorOf(() =>
      validateAnswer({ request: approval, answer: { ok: true, data: { note: wide } } }),
    );
    expect(isAppError(error, "bad_request:input")).toBe(true);
  });

  it("refuses data nested past 64 levels, accepted or declined, naming the path, and takes 64", () => {
    const nested = (levels: number) => {
      let value: Record<string, unknown> = {};
      for (let i = 1; i < levels; i += 1) value = { a: value };
      return value;
    };
    for (const ok of [true, false]) {
      // 100,000 levels overflow a recursive walk (JSON.stringify); the check must come first.
      for (const levels of [65, 2_000, 100_000]) {
        const error = errorOf(() =>
          validateAnswer({ request: approval, answer: { ok, data: nested(levels) } }),
        );
        const path = `/data/${Array(64).fill("a").join("/")}`;
        expect(isAppError(error, "bad_request:input")).toBe(true);
        expect(error).toMatchObject({
          message: `An answer's data is nested deeper than 64 levels (at ${path}).`,
          issues: [{ path, message: "is nested deeper than 64 levels" }],
        });
      }
    }
    expect(validateAnswer({ request: approval, answer: { ok: true, data: nested(64) } }).ok).toBe(true);
  });
});
