import { describe, expect, it, vi } from "vitest";
import { AppError, isAppError, toPublicError } from "./errors";

describe("AppError", () => {
  it("is recognised across copies of the module, as the engine's errors reach the routes", async () => {
    vi.resetModules();
    const copy = await import("./errors");
    expect(copy.AppError).not.toBe(AppError);
    const thrown = new copy.AppError("forbidden:request");
    expect(thrown).toBeInstanceOf(AppError);
    expect(isAppError(thrown, "forbidden:request")).toBe(true);
    expect(toPublicError(thrown)).toMatchObject({ code: "forbidden:request", status: 403 });
  });

  it("is not any other error", () => {
    expect(new Error("forbidden:request")).not.toBeInstanceOf(AppError);
    expect({ code: "forbidden:request" }).not.toBeInstanceOf(AppError);
    expect(toPublicError(new Error("boom"))).toMatchObject({ code: "internal:unexpected", status: 500 });
  });
});
