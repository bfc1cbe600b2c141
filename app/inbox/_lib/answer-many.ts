import { z } from "zod";
import { parseInput } from "@/app/_lib/parse-input";
import { submitAnswer } from "@/app/requests/_lib/submit-answer";
import { ensureRole } from "@/lib/auth/guards";
import type { SessionUser } from "@/lib/auth/session-user";
import { readApprovalEdit } from "@/lib/domain/approval-edit";
import type { BulkOutcome } from "@/lib/domain/inbox";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError, toPublicError } from "@/lib/errors";

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
      z.object({ decision: z.literal("decline"), reason: z.string().trim().max(500).optional() }).strict(),
    ]),
  })
  .strict();

/**
 * A reviewer's bulk approve/decline. Each request is answered on its own, through the same
 * path as a single answer, so one that was answered meanwhile reports its conflict without
 * stopping the others.
 */
export async function answerMany(
  { actor, input }: { actor: SessionUser; input: unknown },
  deps: { engine: Engine },
): Promise<BulkOutcome[]> {
  ensureRole(actor, "reviewer");
  const { requestIds, decision } = parseInput(answerManyInput, input);
  const outcomes: BulkOutcome[] = [];
  for (const requestId of requestIds) {
    try {
      const stored = await deps.engine.readRequest({ requestId, actor });
      if (stored.request.kind !== "approval")
        throw new AppError("bad_request:input", { message: NOT_AN_APPROVAL });
      // Approving in bulk approves what the form would have shown, unedited.
      const values = readApprovalEdit(stored.request.data, stored.args)?.initial;
      const answer =
        decision.decision === "approve"
          ? { ok: true, ...(values && Object.keys(values).length > 0 ? { data: values } : {}) }
          : {
              ok: false,
              reason: "declined",
              ...(decision.reason ? { data: { reason: decision.reason } } : {}),
            };
      await submitAnswer({ actor, input: { requestId, answer } }, deps);
      outcomes.push({ id: requestId, ok: true });
    } catch (error) {
      outcomes.push({ id: requestId, ok: false, message: toPublicError(error).message });
    }
  }
  return outcomes;
}
