import { describe, expect, it, vi } from "vitest";
import { isToolnexusError, ToolnexusError } from "./errors";

describe("ToolnexusError", () => {
  it("is recognised across copies of the library", async () => {
    vi.resetModules();
    const copy = await import("./errors");
    expect(copy.ToolnexusError).not.toBe(ToolnexusError);
    const thrown = new copy.ToolnexusError("timeout", "too slow");
    expect(thrown).toBeInstanceOf(ToolnexusError);
    expect(isToolnexusError(thrown, "timeout")).toBe(true);
    expect(new Error("timeout")).not.toBeInstanceOf(ToolnexusError);
  });
});
