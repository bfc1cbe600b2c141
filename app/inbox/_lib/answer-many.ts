import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { publicErrorOf } from "@/app/_lib/public-error";
import type { BareRequest } from "@/lib/db/requests";
import { DECLINE_REASON_MAX_CHARS } from "@/lib/domain/answer-limits";
import { readApprovalEdit } from "@/lib/domain/approval-edit";
import type { BulkOutcome } from "@/lib/domain/inbox";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import type { Engine, SubmittedAnswer } from "@/lib/engine/engine-types";
import { AppError } from "@/lib/errors";

export const MAX_BULK_ANSWERS = 50;

const NOT_AN_APPROVAL = "Only approvals can be answered in bulk; open this request to answer it.";

export const answerManyInput = z
  .object({
    requestIds: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_BULK_ANSWERS)
      .refine((ids) => new Set(ids).size === ids.length, "Each request may appear only once."),
    decision: z.discriminatedUnion("decision", [
      z.object({ decision: z.literal("approve") }).strict(),
      z
        .object({
          decision: z.literal("decline"),
          reason: z
            .string()
            .trim()
            .max(DECLINE_REASON_MAX_CHARS, `A reason can be at most ${DECLINE_REASON_MAX_CHARS} characters.`)
            .optional(),
        })
        .strict(),
    ]),
  })
  .strict();

type Decision = z.infer<typeof answerManyInput>["decision"];

/** The answer the single form would have sent; only approvals are answered in bulk. */
export function answerFor(decision: Decision) {
  return (stored: BareRequest): SubmittedAnswer => {
    if (!requestKindSpec(stored.request.kind).bulkApprovable)
      throw new AppError("bad_request:input", { message: NOT_AN_APPROVAL });
    if (decision.decision === "decline") {
      return {
        ok: false,
        reason: "declined",
        ...(decision.reason ? { data: { reason: decision.reason } } : {}),
      };
    }
    // Approving in bulk approves what the form would have shown, unedited.
    const values = readApprovalEdit(stored.request.data, stored.args)?.initial;
    return { ok: true, ...(values && Object.keys(values).length > 0 ? { data: values } : {}) };
  };
}

/**
 * A reviewer's bulk approve/decline. Each request is answered on its own, through the same
 * engine path as a single answer, so one that was answered meanwhile reports its conflict
 * without stopping the others.
 */
export const answerMany = defineAction(
  { role: "reviewer", input: answerManyInput },
  async ({ actor, input: { requestIds, decision } }, { engine }: { engine: Engine }) => {
    const outcomes: BulkOutcome[] = [];
    for (const requestId of requestIds) {
      try {
        await engine.answerRequest({ requestId, actor, answer: answerFor(decision) });
        outcomes.push({ id: requestId, ok: true });
      } catch (error) {
        outcomes.push({ id: requestId, ok: false, message: publicErrorOf(error).message });
      }
    }
    return outcomes;
  },
);
