import { describe, expect, it, vi } from "vitest";
import { AppError, isAppError, toPublicError } from "./errors";

describe("isAppError across copies of the module", () => {
  it("recognises an AppError made by another copy of lib/errors, as a second bundle would", async () => {
    vi.resetModules();
    const other = await import("./errors");
    expect(other.AppError).not.toBe(AppError);
    const foreign = new other.AppError("conflict:run_finished");

    expect(isAppError(foreign)).toBe(true);
    expect(isAppError(foreign, "conflict:run_finished")).toBe(true);
    expect(isAppError(foreign, "forbidden:run")).toBe(false);
    expect(toPublicError(foreign)).toMatchObject({ code: "conflict:run_finished", status: 409 });
  });

  it("does not take a plain error or a look-alike object for one", () => {
    expect(isAppError(new Error("boom"))).toBe(false);
    expect(isAppError({ name: "AppError", code: "forbidden:run" })).toBe(false);
    expect(toPublicError(new Error("boom")).code).toBe("internal:unexpected");
  });
});
