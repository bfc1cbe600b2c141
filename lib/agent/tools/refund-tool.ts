import { defineTool, type Tool } from "toolnexus";
import { z } from "zod";
import type { ApprovalProfile } from "@/lib/agent/policy/approval-profile";
import { stableReference } from "./tool-clock";

/** Refunds up to this amount (inclusive, USD) go through without asking. */
export const REFUND_APPROVAL_THRESHOLD = 100;

const argsSchema = z.object({
  orderId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,32}$/, "orderId must be letters, digits or dashes"),
  amount: z.number().positive().max(100_000),
  reason: z.string().max(200).optional(),
});

function money(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

const INPUT_SCHEMA = {
  type: "object",
  properties: {
    orderId: { type: "string", title: "Order", pattern: "^[A-Za-z0-9-]{1,32}$" },
    amount: {
      type: "number",
      title: "Amount (USD)",
      exclusiveMinimum: 0,
      maximum: 100_000,
      description: "USD",
    },
    reason: { type: "string", title: "Reason", maxLength: 200 },
  },
  required: ["orderId", "amount"],
  additionalProperties: false,
} as const;

/** Money that leaves cannot be called back: a reviewer by default, for amounts above the threshold. */
export const REFUND_APPROVAL: ApprovalProfile = {
  asksFor: (args) => typeof args.amount !== "number" || args.amount > REFUND_APPROVAL_THRESHOLD,
  scope: `refunds above ${money(REFUND_APPROVAL_THRESHOLD)}`,
  prompt: (args) =>
    typeof args.amount === "number"
      ? `Approve a refund of ${money(args.amount)} for order ${String(args.orderId)}?`
      : `Approve a refund for order ${String(args.orderId)}?`,
  summary: "Refund {amount:usd} for order {orderId}",
  // An approver may grant a partial refund, never more than was asked for.
  editableSchema: (args) =>
    typeof args.amount === "number" && args.amount > 0
      ? {
          ...INPUT_SCHEMA,
          properties: {
            ...INPUT_SCHEMA.properties,
            amount: { ...INPUT_SCHEMA.properties.amount, maximum: args.amount },
          },
        }
      : INPUT_SCHEMA,
};

export function createRefundTool(): Tool {
  return defineTool({
    name: "refund",
    description: `Refund an order in USD. Amounts above ${money(REFUND_APPROVAL_THRESHOLD)} wait for approval as its policy says.`,
    annotations: {
      title: "Refund an order",
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    inputSchema: INPUT_SCHEMA,
    run: (rawArgs, ctx) => {
      const parsed = argsSchema.safeParse(rawArgs);
      if (!parsed.success) throw new Error(`Invalid refund arguments: ${z.prettifyError(parsed.error)}`);
      const { orderId, amount } = parsed.data;
      const reference = stableReference("RF", ctx?.idempotencyKey, orderId, amount.toFixed(2));
      return `Refunded ${money(amount)} for order ${orderId} (refund ${reference}).`;
    },
  });
}
