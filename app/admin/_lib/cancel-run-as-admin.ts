import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { Engine } from "@/lib/engine/engine-types";

export const cancelRunAsAdminInput = z.object({ runId: z.string().min(1).max(64) }).strict();

/**
 * An admin ends anyone's running or parked run, as its owner's Stop would: open requests are
 * cancelled with it and the owner's chat hears of it live. The engine decides in one
 * conditional write whether the run was still going (`conflict:run_finished` otherwise).
 */
export const cancelRunAsAdmin = defineAction(
  { role: "admin", input: cancelRunAsAdminInput },
  async ({ actor, input: { runId } }, { engine }: { engine: Engine }) => {
    await engine.cancelRun({ runId, actor });
    return { runId };
  },
);
