import { z } from "zod";
import type { Actor } from "@/lib/engine/answer-policy";
import type { Engine } from "@/lib/engine/engine-types";
import { parseInput } from "./parse-input";

export const submitAnswerInput = z
  .object({
    requestId: z.string().min(1).max(64),
    answer: z
      .object({
        ok: z.boolean(),
        data: z.record(z.string(), z.unknown()).optional(),
        reason: z.literal("declined").optional(),
      })
      .strict(),
  })
  .strict();

export type SubmitAnswerInput = z.infer<typeof submitAnswerInput>;

/**
 * Answers one parked request on behalf of `actor`. Reading it first makes a forbidden or
 * unknown request fail before anything else is looked at; the engine then re-checks
 * everything under its atomic claim, which is what makes double submits and stale tabs safe.
 */
export async function submitAnswer(
  { actor, input }: { actor: Actor; input: unknown },
  { engine }: { engine: Engine },
): Promise<{ requestId: string; status: string }> {
  const { requestId, answer } = parseInput(submitAnswerInput, input);
  await engine.readRequest({ requestId, actor });
  const { request } = await engine.answerRequest({ requestId, answer, actor });
  return { requestId: request.id, status: request.status };
}
