import { z } from "zod";
import { parseInput } from "@/app/_lib/parse-input";
import { mcpElicitationOf } from "@/lib/domain/mcp-elicitation";
import type { Actor } from "@/lib/domain/roles";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError } from "@/lib/errors";

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

const SIGN_IN_ELSEWHERE = "A sign-in completes at the provider: use the Continue link on the request.";

/**
 * Answers one parked request on behalf of `actor`. Reading it first makes a forbidden or
 * unknown request fail before anything else is looked at; the engine then re-checks
 * everything under its atomic claim, which is what makes double submits and stale tabs safe.
 * A sign-in is accepted only by the OAuth callback, which has seen the provider's consent; from
 * the browser it can only be declined. An MCP server's URL elicitation is no sign-in of ours: the
 * server itself checks what the user did at its page, so the owner may say they have finished.
 */
export async function submitAnswer(
  { actor, input }: { actor: Actor; input: unknown },
  { engine }: { engine: Engine },
): Promise<{ requestId: string; status: string }> {
  const { requestId, answer } = parseInput(submitAnswerInput, input);
  const stored = await engine.readRequest({ requestId, actor });
  if (stored.request.kind === "authorization" && answer.ok && !mcpElicitationOf(stored.request)) {
    throw new AppError("bad_request:input", { message: SIGN_IN_ELSEWHERE });
  }
  const { request } = await engine.answerRequest({ requestId, answer, actor });
  return { requestId: request.id, status: request.status };
}
