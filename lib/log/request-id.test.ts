import { describe, expect, it } from "vitest";
import { currentRequestId, withRequestId } from "./request-id";

describe("currentRequestId", () => {
  it("is the id a request served beside Next runs with, through awaits, and nothing outside", async () => {
    expect(await currentRequestId()).toBeUndefined();
    const seen = await withRequestId("req-outside-next-1", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return currentRequestId();
    });
    expect(seen).toBe("req-outside-next-1");
    expect(await currentRequestId()).toBeUndefined();
  });
});
