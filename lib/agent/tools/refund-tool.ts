import { defineTool, pending, type Tool } from "toolnexus";
import { z } from "zod";
import { type Clock, expiresIn, HOUR_MS, stableReference, systemClock } from "./tool-clock";

/** Refunds up to this amount (inclusive, USD) go through without a reviewer. */
export const REFUND_APPROVAL_THRESHOLD = 100;
export const REFUND_APPROVAL_TTL_MS = 24 * HOUR_MS;

const argsSchema = z.object({
  orderId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,32}$/, "orderId must be letters, digits or dashes"),
  amount: z.number().positive().max(100_000),
  reason: z.string().max(200).optional(),
});

const approvalSchema = z.object({
  amount: z.number().positive().optional(),
  note: z.string().max(500).optional(),
});

function money(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

export function createRefundTool(options: { clock?: Clock } = {}): Tool {
  const clock = options.clock ?? systemClock;
  return defineTool({
    name: "refund",
    description: `Refund an order in USD. Amounts above ${money(REFUND_APPROVAL_THRESHOLD)} need a reviewer's approval.`,
    inputSchema: {
      type: "object",
      properties: {
        orderId: { type: "string", pattern: "^[A-Za-z0-9-]{1,32}$" },
        amount: { type: "number", exclusiveMinimum: 0, maximum: 100_000, description: "USD" },
        reason: { type: "string", maxLength: 200 },
      },
      required: ["orderId", "amount"],
      additionalProperties: false,
    },
    run: (rawArgs, ctx) => {
      const parsed = argsSchema.safeParse(rawArgs);
      if (!parsed.success) throw new Error(`Invalid refund arguments: ${z.prettifyError(parsed.error)}`);
      const { orderId, amount } = parsed.data;
      const reference = (final: number) =>
        stableReference("RF", ctx?.idempotencyKey, orderId, final.toFixed(2));

      if (amount <= REFUND_APPROVAL_THRESHOLD) {
        return `Refunded ${money(amount)} for order ${orderId} (refund ${reference(amount)}).`;
      }

      if (!ctx?.answer?.ok) {
        return pending({
          kind: "approval",
          prompt: `Approve a refund of ${money(amount)} for order ${orderId}?`,
          data: {
            orderId,
            amount,
            currency: "USD",
            ...(parsed.data.reason ? { reason: parsed.data.reason } : {}),
            values: { amount },
            // A reviewer may approve a partial refund, never more than was asked for.
            schema: {
              type: "object",
              properties: {
                amount: { type: "number", title: "Amount (USD)", exclusiveMinimum: 0, maximum: amount },
                note: { type: "string", title: "Note (optional)", maxLength: 500 },
              },
              required: ["amount"],
              additionalProperties: false,
            },
          },
          expiresAt: expiresIn(clock, REFUND_APPROVAL_TTL_MS),
        });
      }

      const edits = approvalSchema.safeParse(ctx.answer.data ?? {});
      if (!edits.success)
        throw new Error(`The approval carried invalid data: ${z.prettifyError(edits.error)}`);
      const approved = edits.data.amount ?? amount;
      if (approved > amount) throw new Error(`The approved amount ${money(approved)} exceeds the request.`);
      const partial = approved < amount ? ` (partial: ${money(amount)} was requested)` : "";
      const note = edits.data.note?.trim() ? ` Reviewer's note: "${edits.data.note.trim()}".` : "";
      return `Refunded ${money(approved)} for order ${orderId}${partial} (refund ${reference(approved)}).${note}`;
    },
  });
}
