"use server";

import { type ActionResult, toActionResult } from "@/app/_lib/action-result";
import { getAppServices } from "@/app/_lib/app-services";
import { requireUser } from "@/lib/auth/guards";
import { submitAnswer } from "./_lib/submit-answer";

/** Answers one parked request; the run resumes on the server once its turn is complete. */
export async function answerRequestAction(
  input: unknown,
): Promise<ActionResult<{ requestId: string; status: string }>> {
  return toActionResult(async () => {
    const actor = await requireUser();
    return submitAnswer({ actor, input }, await getAppServices());
  });
}
