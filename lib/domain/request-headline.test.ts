import { describe, expect, it } from "vitest";
import { requestHeadline } from "./request-headline";

describe("requestHeadline", () => {
  it("reads a refund's amount as money", () => {
    expect(requestHeadline({ orderId: "A-1", amount: 2500 })).toBe("$2,500.00");
    expect(requestHeadline({ amount: 12.5, currency: "eur" })).toBe("€12.50");
  });

  it("reads a deploy's version as written", () => {
    expect(requestHeadline({ service: "web", version: "v1.4", environment: "production" })).toBe("v1.4");
  });

  it("says nothing for arguments without such a value, or with one too long or not plain", () => {
    expect(requestHeadline({ from: "BER", to: "LIS" })).toBeUndefined();
    expect(requestHeadline({ version: "x".repeat(40) })).toBeUndefined();
    expect(requestHeadline({ amount: "lots" })).toBeUndefined();
    expect(requestHeadline(null)).toBeUndefined();
    expect(requestHeadline(["amount"])).toBeUndefined();
  });
});
