import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { Engine, SubmittedAnswer } from "@/lib/engine/engine-types";

/**
 * An answer as a form sends it. Strict at every level: `ok` must be a real boolean (a form's
 * "false" string is refused, not read as true) and an unknown field is refused, not dropped.
 */
export const answerInput = z
  .object({
    ok: z.boolean(),
    data: z.record(z.string(), z.unknown()).optional(),
    reason: z.literal("declined").optional(),
  })
  .strict() satisfies z.ZodType<SubmittedAnswer>;

export const submitAnswerInput = z
  .object({
    requestId: z.string().min(1).max(64),
    answer: answerInput,
  })
  .strict();

/**
 * Answers one parked request for the signed-in person, from the request page or a chat card.
 * Everything about the request itself (who may answer, whether it is still open, the schema)
 * is the engine's to check, under its atomic claim.
 */
export const submitAnswer = defineAction(
  { role: "user", input: submitAnswerInput },
  async ({ actor, input: { requestId, answer } }, { engine }: { engine: Engine }) => {
    const { request } = await engine.answerRequest({ requestId, answer, actor });
    return { requestId: request.id, status: request.status };
  },
);
