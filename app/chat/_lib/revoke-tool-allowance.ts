import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
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
export const revokeToolAllowance = defineAction(
  { role: "user", input: revokeToolAllowanceInput },
  async ({ actor, input: { threadId, toolName } }, { db }: { db: DbClient }) => {
    await loadOwnThread({ actor, threadId }, { db });
    if (!(await deleteThreadToolAllowance({ db, threadId, toolName, actorId: actor.id }))) {
      throw new AppError("not_found:allowance");
    }
    return { threadId, toolName };
  },
);
