import { z } from "zod";
import { parseInput } from "@/app/_lib/parse-input";
import type { SessionUser } from "@/lib/auth/session-user";
import type { DbClient } from "@/lib/db/db-types";
import { deleteThreadToolAllowance } from "@/lib/db/tool-policies";
import { AppError } from "@/lib/errors";
import { loadOwnThread } from "./load-own-thread";

export const revokeToolAllowanceInput = z
  .object({
    threadId: z.string().min(1).max(64),
    toolName: z.string().min(1).max(200),
  })
  .strict();

/**
 * The chat's owner takes back "always allow <tool> in this chat": the tool's next call in the
 * chat asks again. Only the owner may, like everything else about a chat; it is audited.
 */
export async function revokeToolAllowance(
  { actor, input }: { actor: SessionUser; input: unknown },
  { db }: { db: DbClient },
): Promise<{ threadId: string; toolName: string }> {
  const { threadId, toolName } = parseInput(revokeToolAllowanceInput, input);
  await loadOwnThread({ actor, threadId }, { db });
  if (!(await deleteThreadToolAllowance({ db, threadId, toolName, actorId: actor.id }))) {
    throw new AppError("not_found:allowance");
  }
  return { threadId, toolName };
}
