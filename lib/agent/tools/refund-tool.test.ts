import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { createRefundTool, REFUND_APPROVAL_THRESHOLD } from "./refund-tool";

const now = new Date("2030-06-15T08:30:00.000Z");
const tool = createRefundTool({ clock: () => now });

describe("refund tool", () => {
  it("refunds up to the threshold without approval", async () => {
    const result = await tool.execute({ orderId: "1234", amount: REFUND_APPROVAL_THRESHOLD });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^Refunded \$100\.00 for order 1234 \(refund RF-[0-9A-F]{8}\)\.$/);
  });

  it("asks a reviewer above the threshold, for 24 hours", async () => {
    const request = pendingOf(await tool.execute({ orderId: "1234", amount: 250, reason: "damaged" }));
    expect(request).toMatchObject({
      kind: "approval",
      prompt: "Approve a refund of $250.00 for order 1234?",
      expiresAt: "2030-06-16T08:30:00.000Z",
      data: { orderId: "1234", amount: 250, currency: "USD", reason: "damaged", values: { amount: 250 } },
    });
    expect(request?.data?.schema).toMatchObject({ properties: { amount: { maximum: 250 } } });
  });

  it("pays the approved amount, including a partial refund, on the retry", async () => {
    const full = await tool.execute({ orderId: "1234", amount: 250 }, { answer: { id: "r", ok: true } });
    expect(full.output).toMatch(/^Refunded \$250\.00 for order 1234 \(refund/);

    const partial = await tool.execute(
      { orderId: "1234", amount: 250 },
      { answer: { id: "r", ok: true, data: { amount: 120, note: "half was used" } } },
    );
    expect(partial.isError).toBe(false);
    expect(partial.output).toContain("Refunded $120.00 for order 1234 (partial: $250.00 was requested)");
    expect(partial.output).toContain('"half was used"');
  });

  it("never pays more than was requested", async () => {
    const result = await tool.execute(
      { orderId: "1234", amount: 250 },
      { answer: { id: "r", ok: true, data: { amount: 900 } } },
    );
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/exceeds the request/);
  });

  it("rejects invalid orders and amounts", async () => {
    expect((await tool.execute({ orderId: "12 34", amount: 5 })).isError).toBe(true);
    expect((await tool.execute({ orderId: "1234", amount: -5 })).isError).toBe(true);
  });
});
