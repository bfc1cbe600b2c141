import { describe, expect, it } from "vitest";
import { likelyFieldPath } from "./likely-field";

const wrapped = (properties: Record<string, unknown>) => ({
  type: "object",
  properties: {
    arguments: { type: "object", title: "Arguments", properties },
    note: { type: "string", title: "Note (optional)", maxLength: 500 },
  },
});

describe("likelyFieldPath", () => {
  it("picks the first argument the tool constrains, not the first one", () => {
    const deploy = wrapped({
      service: { type: "string", description: "Service name, e.g. web" },
      version: { type: "string", pattern: "^v?\\d+(\\.\\d+){0,2}$" },
      environment: { type: "string", enum: ["staging", "production"] },
    });
    expect(likelyFieldPath(deploy)).toEqual(["arguments", "version"]);
    const refund = wrapped({ orderId: { type: "string" }, amount: { type: "number", maximum: 250 } });
    expect(likelyFieldPath(refund)).toEqual(["arguments", "amount"]);
  });

  it("falls back to the first free value, skipping choices, and to nothing", () => {
    expect(
      likelyFieldPath(wrapped({ env: { type: "string", enum: ["a"] }, name: { type: "string" } })),
    ).toEqual(["arguments", "name"]);
    expect(likelyFieldPath({ type: "object", properties: {} })).toBeUndefined();
    expect(likelyFieldPath(undefined)).toBeUndefined();
  });
});
