import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { getRunById } from "@/lib/db/runs";
import type { Engine } from "@/lib/engine/engine-types";
import { AppError } from "@/lib/errors";
import { loadOwnThread } from "./load-own-thread";

export const cancelChatRunInput = z
  .object({
    threadId: z.string().min(1).max(64),
    runId: z.string().min(1).max(64),
  })
  .strict();

/**
 * "Stop": the chat's owner ends the thread's running or parked run. Its open requests are
 * cancelled with it. A run that has already ended is a `conflict:run_finished` and stays as it
 * was; the engine decides that in the same statement that ends the run, so a stop racing a
 * reviewer's answer has exactly one winner.
 */
export const cancelChatRun = defineAction(
  { role: "user", input: cancelChatRunInput },
  async ({ actor, input: { threadId, runId } }, { engine, db }: { engine: Engine; db: DbClient }) => {
    await loadOwnThread({ actor, threadId }, { db });
    const run = await getRunById({ db, runId });
    // A run of another thread is reported as missing, not forbidden: its id says nothing here.
    if (!run || run.threadId !== threadId) throw new AppError("not_found:run");
    await engine.cancelRun({ runId, actor });
    return { runId };
  },
);
