import { Ajv } from "ajv";
import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { fillSummary, summaryText } from "@/lib/domain/request-summary";
import { createRefundTool, REFUND_APPROVAL, REFUND_APPROVAL_THRESHOLD } from "./refund-tool";

const tool = createRefundTool();

describe("refund tool", () => {
  it("refunds what it is called with: asking first is the approval gate's job", async () => {
    const small = await tool.execute({ orderId: "1234", amount: REFUND_APPROVAL_THRESHOLD });
    expect(small.output).toMatch(/^Refunded \$100\.00 for order 1234 \(refund RF-[0-9A-F]{8}\)\.$/);
    const large = await tool.execute({ orderId: "1234", amount: 250 });
    expect(pendingOf(large)).toBeUndefined();
    expect(large.output).toMatch(/^Refunded \$250\.00 for order 1234 \(refund/);
  });

  it("is destructive and asks only above the threshold", () => {
    expect(tool.annotations).toMatchObject({ destructiveHint: true });
    expect(REFUND_APPROVAL.asksFor?.({ orderId: "1", amount: REFUND_APPROVAL_THRESHOLD })).toBe(false);
    expect(REFUND_APPROVAL.asksFor?.({ orderId: "1", amount: 100.01 })).toBe(true);
    expect(REFUND_APPROVAL.prompt?.({ orderId: "1234", amount: 250 })).toBe(
      "Approve a refund of $250.00 for order 1234?",
    );
    // The sentence names the money and the order; the refund's own "reason" is only a value.
    const parts = fillSummary(REFUND_APPROVAL.summary!, { orderId: "1234", amount: 250, reason: "damaged" });
    expect(parts && summaryText(parts)).toBe("Refund $250.00 for order 1234");
  });

  it("lets an approver lower the amount but never raise it", () => {
    const schema = REFUND_APPROVAL.editableSchema?.({ orderId: "1234", amount: 250 }, tool.inputSchema);
    const validate = new Ajv().compile(schema!);
    expect(validate({ orderId: "1234", amount: 120 })).toBe(true);
    expect(validate({ orderId: "1234", amount: 250 })).toBe(true);
    expect(validate({ orderId: "1234", amount: 250.01 })).toBe(false);
  });

  it("rejects invalid orders and amounts", async () => {
    expect((await tool.execute({ orderId: "12 34", amount: 5 })).isError).toBe(true);
    expect((await tool.execute({ orderId: "1234", amount: -5 })).isError).toBe(true);
  });
});
