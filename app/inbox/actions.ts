"use server";

import { type ActionResult, toActionResult } from "@/app/_lib/action-result";
import { getAppServices } from "@/app/_lib/app-services";
import { requireRole } from "@/lib/auth/guards";
import type { BulkOutcome } from "@/lib/domain/inbox";
import { answerMany } from "./_lib/answer-many";

/** A reviewer's approve/decline of several approvals at once; each reports its own outcome. */
export async function answerManyAction(input: unknown): Promise<ActionResult<BulkOutcome[]>> {
  return toActionResult(async () => {
    const actor = await requireRole("reviewer");
    return answerMany({ actor, input }, await getAppServices());
  });
}
